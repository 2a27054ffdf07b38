import { format } from 'node:util';

import { describe, expect, it } from 'vitest';

import * as bindings from '../../../packages/sdkpp/bindings/index.js';
import { CallError, CallStatus, ClientError, ClientStatus } from '../../../packages/sdkpp/src/index.js';

describe('states log as their names', () => {
  it('in the idiomatic API, a status or error prints as its name', () => {
    expect(format('status', ClientStatus.Ready)).toBe('status Ready');
    expect(format('%s', ClientError.UnexpectedClose)).toBe('UnexpectedClose');
    expect(`${CallStatus.SignalingConnected} (${CallError.JoinTimeout})`).toBe(
      'SignalingConnected (JoinTimeout)',
    );
    expect(JSON.stringify({ status: CallStatus.Connected })).toBe('{"status":"Connected"}');
  });

  it('the bindings keep the C++ numbers and map every idiomatic state to one', () => {
    expect(bindings.Client.Status.Ready).toBe(3);
    expect(bindings.Client.Error.ConnectionCanceled).toBe(3);
    expect(bindings.Call.Status.Disconnecting).toBe(6);
    expect(bindings.Call.Error.Forbidden).toBe(5);
    for (const name of Object.values(ClientStatus)) expect(typeof bindings.ClientStatus[name]).toBe('number');
    for (const name of Object.values(ClientError)) expect(typeof bindings.ClientError[name]).toBe('number');
    for (const name of Object.values(CallStatus)) expect(typeof bindings.CallStatus[name]).toBe('number');
    for (const name of Object.values(CallError)) expect(typeof bindings.CallError[name]).toBe('number');
    expect(bindings.Client.StatusToString(bindings.ClientStatus.HttpWait)).toBe('HttpWait');
    expect(bindings.Call.ErrorToString(bindings.CallError.JoinTimeout)).toBe('JoinTimeout');
  });
});
