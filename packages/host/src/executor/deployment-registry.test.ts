import { describe, expect, it } from 'vitest';
import { assertDeployment, DeploymentRegistry, deploymentKey } from './deployment-registry.js';

describe('deployment registry', () => {
  it('keys change with id, script and env, and are stable otherwise', () => {
    const base = { id: 'a@1', script: 's', env: { B: '2', A: '1' } };
    expect(deploymentKey(base)).toBe(deploymentKey({ id: 'a@1', script: 's', env: { A: '1', B: '2' } }));
    expect(deploymentKey(base)).not.toBe(deploymentKey({ ...base, script: 't' }));
    expect(deploymentKey(base)).not.toBe(deploymentKey({ ...base, env: { A: '1', B: '3' } }));
    expect(deploymentKey(base)).not.toBe(deploymentKey({ ...base, id: 'a@2' }));
    expect(deploymentKey(base)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps pinned sources and evicts the oldest unpinned beyond the limit', () => {
    const registry = new DeploymentRegistry(1);
    const pinned = registry.acquire({ id: 'p', script: 'p' });
    const first = registry.acquire({ id: 'x', script: 'x' });
    registry.release(first);
    const second = registry.acquire({ id: 'y', script: 'y' });
    registry.release(second);
    expect(registry.get(pinned)?.script).toBe('p');
    expect(registry.get(first)).toBeUndefined();
    expect(registry.get(second)?.script).toBe('y');
    registry.release(pinned);
    expect(registry.size).toBe(1);
  });

  it('rejects malformed deployments with a clear message', () => {
    expect(() => assertDeployment({ id: '', script: '' })).toThrow(
      /deployment.id must be a non-empty string/,
    );
    expect(() => assertDeployment({ id: 'a', script: 1 as unknown as string })).toThrow(
      /deployment.script of a/,
    );
    expect(() => assertDeployment({ id: 'a', script: '', env: { K: 1 as unknown as string } })).toThrow(
      /deployment.env.K/,
    );
  });
});
