import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateSecret, generateSigningKeyPair, standardSecret } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { type Receiver, repoRoot, startReceiver, startTestHost, type TestHost } from './helpers.js';

// The verification snippets of docs/receivers.md ("Signature schemes"), run as the docs show them, in each
// language whose toolchain this machine has, on real deliveries of a running host (every scheme), on
// tampered copies, with another key and with a stale timestamp. A missing toolchain skips its test and
// says why in the test's name.

const run = promisify(execFile);
type Scheme = 'platform' | 'standard-webhooks' | 'ed25519';
interface Case {
  name: string;
  scheme: Scheme;
  /** Base64 of the raw body. */
  body: string;
  headers: Record<string, string>;
  key: string;
  /** Unix seconds the snippet takes as now. */
  now: number;
  expected: boolean;
}

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const HAS_PYTHON = works('python3', ['--version']);
const HAS_CRYPTOGRAPHY = HAS_PYTHON && works('python3', ['-c', 'import cryptography']);
const HAS_GO = works('go', ['version']);

/** The code block after `<!-- snippet: NAME -->` in docs/receivers.md. */
async function snippet(name: string): Promise<string> {
  const doc = await readFile(join(repoRoot, 'docs/receivers.md'), 'utf8');
  const match = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match?.[1]) throw new Error(`docs/receivers.md has no block marked <!-- snippet: ${name} -->`);
  return match[1];
}

const JS_RUNNER = `import { readFileSync } from 'node:fs';
import { verifyEd25519, verifyPlatform, verifyStandardWebhooks } from './snippet.mjs';
const fns = { platform: verifyPlatform, 'standard-webhooks': verifyStandardWebhooks, ed25519: verifyEd25519 };
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(cases.map((c) => fns[c.scheme](Buffer.from(c.body, 'base64'), c.headers, c.key, c.now * 1000))));
`;

const PYTHON_RUNNER = `import base64, json, sys
import snippet

class Headers(dict):
    def get(self, name, default=None):
        return dict.get(self, name.lower(), default)

fns = {"standard-webhooks": snippet.verify_standard_webhooks, "ed25519": snippet.verify_ed25519}
cases = json.load(open(sys.argv[1]))
print(json.dumps([fns[c["scheme"]](base64.b64decode(c["body"]), Headers(c["headers"]), c["key"], c["now"]) for c in cases]))
`;

const GO_RUNNER = `package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"snippets/webhooks"
)

type testCase struct {
	Scheme  string            \`json:"scheme"\`
	Body    string            \`json:"body"\`
	Headers map[string]string \`json:"headers"\`
	Key     string            \`json:"key"\`
	Now     int64             \`json:"now"\`
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cases []testCase
	if err := json.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	out := []bool{}
	for _, c := range cases {
		body, _ := base64.StdEncoding.DecodeString(c.Body)
		h := http.Header{}
		for k, v := range c.Headers {
			h.Set(k, v)
		}
		now := time.Unix(c.Now, 0)
		if c.Scheme == "ed25519" {
			out = append(out, webhooks.VerifyEd25519(body, h, c.Key, now))
		} else {
			out = append(out, webhooks.VerifyStandardWebhooks(body, h, c.Key, now))
		}
	}
	encoded, _ := json.Marshal(out)
	fmt.Println(string(encoded))
}
`;

function snippetsSuite(backend: Backend) {
  let t: TestHost;
  let receiver: Receiver;
  let work: string;
  const cases: Case[] = [];

  beforeAll(async () => {
    t = await startTestHost({ PLATFORM_ALLOW_PRIVATE_TARGETS: '1' }, backend);
    receiver = await startReceiver();
    work = await mkdtemp(join(tmpdir(), 'receivers-snippets-'));
    const keys = {} as Record<Scheme, string>;
    const space = `space-snippets-${backend}`;
    for (const scheme of ['platform', 'standard-webhooks', 'ed25519'] as const) {
      const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
        integration: 'webhook',
        space,
        configuration: {
          url: `${receiver.url}?scheme=${scheme}`,
          space_content_updated: true,
          signature_scheme: scheme,
        },
      });
      expect(installed.status, JSON.stringify(installed.body)).toBe(201);
      const id = installed.body.id;
      if (scheme === 'ed25519') {
        keys[scheme] = (
          await t.api<{ publicKey: string }>('GET', `/v1/installations/${id}/webhook-public-key`)
        ).body.publicKey;
      } else {
        const secret = await t.api<{ secret: string; standardWebhooks: { secret: string } }>(
          'GET',
          `/v1/installations/${id}/webhook-secret`,
        );
        keys[scheme] = scheme === 'platform' ? secret.body.secret : secret.body.standardWebhooks.secret;
      }
    }
    const posted = await t.api('POST', '/v1/events', {
      type: 'space_content_updated',
      spaceId: space,
      revisionId: 'rev-snippets',
    });
    expect(posted.status).toBe(202);
    const others: Record<Scheme, string> = {
      platform: generateSecret(),
      'standard-webhooks': standardSecret(generateSecret()),
      ed25519: (await generateSigningKeyPair()).publicKey,
    };
    for (const request of await receiver.waitFor(3)) {
      const scheme = new URL(request.url, 'http://x').searchParams.get('scheme') as Scheme;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      const body = Buffer.from(request.body).toString('base64');
      const now = Math.floor(request.at / 1000);
      const base = { scheme, headers, body, key: keys[scheme], now };
      cases.push(
        { ...base, name: `${scheme}: a real delivery`, expected: true },
        {
          ...base,
          name: `${scheme}: the body changed`,
          body: Buffer.from(`${request.body} `).toString('base64'),
          expected: false,
        },
        { ...base, name: `${scheme}: another key`, key: others[scheme], expected: false },
        { ...base, name: `${scheme}: 10 minutes later`, now: now + 600, expected: false },
      );
    }
    expect(cases).toHaveLength(12);
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Runs `command` on the cases and checks each answer. */
  async function check(
    selected: Case[],
    command: string,
    args: string[],
    cwd: string,
    env: NodeJS.ProcessEnv = {},
  ) {
    const file = join(cwd, 'cases.json');
    await writeFile(file, JSON.stringify(selected));
    const { stdout } = await run(command, [...args, file], {
      cwd,
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    const answers = JSON.parse(stdout) as boolean[];
    expect(Object.fromEntries(selected.map((c, i) => [c.name, answers[i]]))).toEqual(
      Object.fromEntries(selected.map((c) => [c.name, c.expected])),
    );
  }

  it('JavaScript: the node:crypto functions accept every real delivery and refuse the rest', async () => {
    const dir = join(work, 'js');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'snippet.mjs'), await snippet('js'));
    await writeFile(join(dir, 'run.mjs'), JS_RUNNER);
    await check(cases, process.execPath, ['run.mjs'], dir);
  });

  /** The Python functions on the cases of one scheme. */
  async function python(scheme: Scheme) {
    const dir = join(work, `py-${scheme}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'snippet.py'), await snippet('python'));
    await writeFile(join(dir, 'run.py'), PYTHON_RUNNER);
    await check(
      cases.filter((c) => c.scheme === scheme),
      'python3',
      ['run.py'],
      dir,
    );
  }

  it.skipIf(!HAS_PYTHON)(
    `Python: standard-webhooks${HAS_PYTHON ? '' : ' (skipped: no python3 on this machine)'}`,
    () => python('standard-webhooks'),
  );

  it.skipIf(!HAS_CRYPTOGRAPHY)(
    `Python: ed25519${HAS_CRYPTOGRAPHY ? '' : ' (skipped: python3 has no "cryptography" package here)'}`,
    () => python('ed25519'),
  );

  it.skipIf(!HAS_GO)(
    `Go: standard-webhooks and ed25519${HAS_GO ? '' : ' (skipped: no Go toolchain on this machine, `go version` failed)'}`,
    async () => {
      const dir = join(work, 'go');
      await mkdir(join(dir, 'webhooks'), { recursive: true });
      await writeFile(join(dir, 'go.mod'), 'module snippets\n\ngo 1.19\n');
      await writeFile(join(dir, 'webhooks', 'webhooks.go'), await snippet('go'));
      await writeFile(join(dir, 'main.go'), GO_RUNNER);
      await check(
        cases.filter((c) => c.scheme !== 'platform'),
        'go',
        ['run', '.'],
        dir,
        { GOCACHE: join(work, 'gocache'), GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off' },
      );
    },
    180_000,
  );
}

describe.each(BACKENDS)('docs/receivers.md signature snippets (%s)', (backend) => snippetsSuite(backend));
