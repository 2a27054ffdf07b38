import { describe, expect, it } from 'vitest';

import {
  ActivityPartyPrivacy,
  ActivityTypes,
  StatusDisplayTypes,
  type Activity,
} from '../../../packages/sdkpp/src/presence/Activity.js';
import {
  activityToWire,
  omitEmpty,
  validateActivity,
} from '../../../packages/sdkpp/src/presence/activityWire.js';
import { ValidationError } from '../../../packages/protocol/src/errors/index.js';

describe('activity serialisation', () => {
  it('maps every field to its wire name', () => {
    const activity: Activity = {
      type: ActivityTypes.Competing,
      name: 'Kart Cup',
      state: 'In a group',
      stateUrl: 'https://example.com/state',
      details: 'Ranked match',
      detailsUrl: 'https://example.com/details',
      statusDisplayType: StatusDisplayTypes.Details,
      assets: {
        largeImage: 'map-desert',
        largeText: 'Desert',
        largeUrl: 'https://example.com/map',
        smallImage: 'https://cdn.example.com/kart.png',
        smallText: 'Kart',
        smallUrl: 'https://example.com/kart',
        inviteCoverImage: 'cover',
      },
      party: { id: 'party-1', currentSize: 2, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
      secrets: { join: 'join-secret' },
      timestamps: { start: 1_700_000_000_000 },
      buttons: [{ label: 'Watch', url: 'https://example.com/watch' }],
    };
    expect(activityToWire(activity)).toEqual({
      type: 5,
      name: 'Kart Cup',
      state: 'In a group',
      state_url: 'https://example.com/state',
      details: 'Ranked match',
      details_url: 'https://example.com/details',
      status_display_type: 2,
      assets: {
        large_image: 'map-desert',
        large_text: 'Desert',
        large_url: 'https://example.com/map',
        small_image: 'https://cdn.example.com/kart.png',
        small_text: 'Kart',
        small_url: 'https://example.com/kart',
        invite_cover_image: 'cover',
      },
      party: { id: 'party-1', size: [2, 4], privacy: 1 },
      secrets: { join: 'join-secret' },
      timestamps: { start: 1_700_000_000_000 },
      buttons: [{ label: 'Watch', url: 'https://example.com/watch' }],
    });
  });

  it('omits null and empty keys, keeping zeros', () => {
    const wire = activityToWire({
      type: ActivityTypes.Playing,
      state: '',
      assets: {},
      buttons: [],
      timestamps: {},
    });
    expect(wire).toEqual({ type: ActivityTypes.Playing });
    expect(omitEmpty({ a: null, b: '', c: [], d: {}, e: 0, f: false, g: [null, 1] })).toEqual({
      e: 0,
      f: false,
      g: [1],
    });
  });

  it('takes timestamps in seconds (as the guides pass them) or ms', () => {
    expect(
      activityToWire({
        type: ActivityTypes.Playing,
        timestamps: { start: 1_700_000_000, end: 1_700_000_000_500 },
      }),
    ).toEqual({
      type: 0,
      timestamps: { start: 1_700_000_000_000, end: 1_700_000_000_500 },
    });
  });

  it.each([1, 4, 6, 42])('refuses activity type %i before any I/O', (type) => {
    // As a JS caller would pass it: the type system cannot stop a wrong number there.
    const activity = JSON.parse(`{"type":${type}}`) as Activity;
    expect(() => {
      validateActivity(activity);
    }).toThrow(ValidationError);
  });

  it.each<[string, Activity]>([
    ['long state', { type: ActivityTypes.Playing, state: 'x'.repeat(129) }],
    ['non-http url', { type: ActivityTypes.Playing, stateUrl: 'javascript:alert(1)' }],
    [
      'three buttons',
      {
        type: ActivityTypes.Playing,
        buttons: Array.from({ length: 3 }, () => ({ label: 'b', url: 'https://e.com' })),
      },
    ],
    [
      'long button label',
      { type: ActivityTypes.Playing, buttons: [{ label: 'x'.repeat(33), url: 'https://e.com' }] },
    ],
    ['party too full', { type: ActivityTypes.Playing, party: { id: 'pp', currentSize: 5, maxSize: 4 } }],
    ['short party id', { type: ActivityTypes.Playing, party: { id: 'p', currentSize: 1, maxSize: 4 } }],
    ['negative timestamp', { type: ActivityTypes.Playing, timestamps: { start: -1 } }],
  ])('refuses %s', (_name, activity) => {
    expect(() => activityToWire(activity)).toThrow(ValidationError);
  });
});
