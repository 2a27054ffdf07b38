import { describe, expect, it } from 'vitest';

import { ClientError, ClientStatus } from '../../../packages/sdkpp/src/client/ClientStatus.js';
import { HttpWaitStatus } from '../../../packages/sdkpp/src/client/HttpWaitStatus.js';
import { Logger } from '../../../packages/sdkpp/src/logging/index.js';

function setup(initial: ClientStatus) {
  let connection = initial;
  const shown: Array<[ClientStatus, ClientError]> = [];
  const waits: Array<[boolean, number, string]> = [];
  const status = new HttpWaitStatus({
    connectionStatus: () => connection,
    log: new Logger().writer('client'),
    emitStatus: (s, e) => shown.push([s, e]),
    emitWait: (w, s, r) => waits.push([w, s, r]),
  });
  const connectionChanged = (next: ClientStatus, error = ClientError.None): void => {
    connection = next;
    status.onConnectionStatus(next, error, 0);
  };
  return { status, shown, waits, connectionChanged };
}

describe('HttpWaitStatus', () => {
  it('shows HttpWait while any request waits, then the connection status again', () => {
    const { status, shown, waits } = setup(ClientStatus.Ready);
    status.onWait(true, 1.5, 'POST /a');
    status.onWait(true, 0.5, 'POST /b');
    expect(status.status).toBe(ClientStatus.HttpWait);
    status.onWait(false, 0, 'POST /b');
    expect(status.status).toBe(ClientStatus.HttpWait);
    status.onWait(false, 0, 'POST /a');
    expect(status.status).toBe(ClientStatus.Ready);
    expect(shown).toEqual([
      [ClientStatus.HttpWait, ClientError.None],
      [ClientStatus.Ready, ClientError.None],
    ]);
    expect(waits).toEqual([
      [true, 1.5, 'POST /a'],
      [true, 0.5, 'POST /b'],
      [false, 0, 'POST /b'],
      [false, 0, 'POST /a'],
    ]);
  });

  it('never shows HttpWait over Disconnected or Disconnecting, and reports connection changes after the wait', () => {
    const { status, shown, connectionChanged } = setup(ClientStatus.Disconnected);
    status.onWait(true, 2, 'POST /oauth2/token');
    expect(status.status).toBe(ClientStatus.Disconnected);
    connectionChanged(ClientStatus.Connecting);
    expect(status.status).toBe(ClientStatus.HttpWait);
    connectionChanged(ClientStatus.Connected);
    status.onWait(false, 0, 'POST /oauth2/token');
    connectionChanged(ClientStatus.Disconnected, ClientError.ConnectionFailed);
    expect(shown).toEqual([
      [ClientStatus.HttpWait, ClientError.None],
      [ClientStatus.Connected, ClientError.None],
      [ClientStatus.Disconnected, ClientError.ConnectionFailed],
    ]);
  });

  it('passes a disconnect with an error through at once, even while a request waits', () => {
    const { status, shown, connectionChanged } = setup(ClientStatus.Ready);
    status.onWait(true, 2, 'GET /x');
    connectionChanged(ClientStatus.Disconnected, ClientError.UnexpectedClose);
    expect(status.status).toBe(ClientStatus.Disconnected);
    expect(shown.at(-1)).toEqual([ClientStatus.Disconnected, ClientError.UnexpectedClose]);
  });
});
