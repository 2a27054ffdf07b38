import { describe, expect, it } from 'vitest';

import {
  childTokenScopes,
  resolvePublisherApplications,
} from '../../../packages/emulator/src/oauth/publisherApplications.js';
import { expandScopes } from '../../../packages/emulator/src/store/scopes.js';

const parentOf = (scope: string): { scope: string; scopes: string[] } => ({
  scope,
  scopes: expandScopes(scope.split(' ')),
});

describe('publisher applications (publisher-level linking)', () => {
  it('checks the option: snowflake ids, no duplicates or the served id, known scopes', () => {
    const [child] = resolvePublisherApplications([{ id: '11' }], '10');
    expect(child).toEqual({
      id: '11',
      name: 'Child game 11',
      child: true,
      scopes: ['openid', 'sdk.social_layer', 'sdk.social_layer_presence'],
    });
    expect(() => resolvePublisherApplications([{ id: 'x' }], '10')).toThrow('[0].id must be a snowflake');
    expect(() => resolvePublisherApplications([{ id: '10' }], '10')).toThrow('[0].id 10 is taken');
    expect(() => resolvePublisherApplications([{ id: '11' }, { id: '11' }], '10')).toThrow(
      '[1].id 11 is taken',
    );
    expect(() => resolvePublisherApplications([{ id: '11', scopes: ['rule.the.world'] }], '10')).toThrow(
      'unknown scope "rule.the.world"',
    );
    expect(() => resolvePublisherApplications([{ id: '11', name: '' }], '10')).toThrow('1–100 characters');
  });

  it("narrows the parent's scopes to the child's, naming bundles only whole", () => {
    const [all, presence, identifyOnly, none] = resolvePublisherApplications(
      [
        { id: '11' },
        { id: '12', scopes: ['openid', 'sdk.social_layer_presence'] },
        { id: '13', scopes: ['identify', 'lobbies.write'] },
        { id: '14', scopes: ['identify.premium'] },
      ],
      '10',
    );
    if (!all || !presence || !identifyOnly || !none) throw new Error('four children expected');
    const parent = parentOf('openid sdk.social_layer');
    expect(childTokenScopes(parent, all).scope).toBe('openid sdk.social_layer');
    const narrowed = childTokenScopes(parent, presence);
    expect(narrowed.scope).toBe('openid sdk.social_layer_presence');
    expect(narrowed.scopes).toContain('relationships.read');
    expect(narrowed.scopes).not.toContain('lobbies.write');
    expect(childTokenScopes(parent, identifyOnly)).toEqual({
      scope: 'identify lobbies.write',
      scopes: ['identify', 'lobbies.write'],
    });
    expect(childTokenScopes(parent, none).scopes).toEqual([]);
    // A presence-only parent never gains the communication bundle from a child that accepts it.
    expect(childTokenScopes(parentOf('sdk.social_layer_presence'), all).scope).toBe(
      'sdk.social_layer_presence',
    );
  });
});
