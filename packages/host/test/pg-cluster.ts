import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freeLoopbackPort } from './ports.js';

const run = promisify(execFile);

/** A PostgreSQL server of a test's own (never the machine's shared one), which the test may crash. */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash (no shutdown checkpoint, clients cut). */
  crash(): Promise<void>;
  /** `pg_ctl stop -m fast`: an operator's shutdown (sessions end with 57P01, then a checkpoint). */
  stop(): Promise<void>;
  /** Stops the server (if running) and deletes its folder. */
  destroy(): Promise<void>;
}

/** The folder of `initdb` and `pg_ctl`: `PG_BIN`, else the newest /usr/lib/postgresql/<version>/bin. */
function serverBinaries(): string {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) {
    throw new Error(
      'The PostgreSQL fault tests create their own server with initdb and pg_ctl, which were not found ' +
        `(looked in ${candidates.length > 0 ? candidates.join(', ') : `${root}/<version>/bin`}). ` +
        'Install the PostgreSQL server (Debian: apt-get install postgresql-15; add it to .ci/run) or set PG_BIN ' +
        'to the folder holding initdb and pg_ctl.',
    );
  }
  return found;
}

/** Runs a server binary: as the `postgres` OS user when we are root (PostgreSQL refuses to run as root). */
async function pgExec(bin: string, args: string[], asPostgres: boolean): Promise<string> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    const { stdout } = await run(file, argv, { timeout: 120_000 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message?: string };
    throw new Error(`${bin} ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/**
 * Creates a PostgreSQL cluster with `initdb` in a temporary folder (trust auth, loopback only, a free
 * port, its socket in the same folder) and starts it. Fails with what to install when the server
 * binaries are missing.
 *
 * @example
 * const cluster = await createPgCluster();
 * await cluster.crash(); await cluster.start();
 * await cluster.destroy();
 */
export async function createPgCluster(): Promise<PgCluster> {
  const bin = serverBinaries();
  const asPostgres = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'pg-faults-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'sock');
  await mkdir(socket);
  if (asPostgres) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    for (const path of [dir, socket]) await chown(path, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freeLoopbackPort();
  const pg = (name: string, args: string[]) => pgExec(join(bin, name), args, asPostgres);
  await pg('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const log = join(dir, 'server.log');
  // fsync=off: the tests crash the server process, never the machine, so what it wrote stays in the OS.
  const options = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  let running = false;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      try {
        await pg('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start']);
      } catch (error) {
        const tail = (await readFile(log, 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
        throw new Error(`${(error as Error).message}\nserver log:\n${tail}`);
      }
      running = true;
    },
    async crash() {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    async stop() {
      await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
