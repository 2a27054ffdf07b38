import { describe, expect, it } from 'vitest';

import { ErrorType, SdkError, ValidationError } from '../../../packages/protocol/src/errors/index.js';
import {
  createMediaEngine,
  JsMediaEngine,
  MediaEngineError,
  type MediaEngineKind,
} from '../../../packages/sdkpp/src/media/index.js';

describe('MediaEngineError in the SDK error family', () => {
  it('is an SdkError of type ValidationError that keeps its code and name', () => {
    const engine = new JsMediaEngine();
    let thrown: unknown;
    try {
      engine.aeadSeal(
        'aes-256-gcm',
        new Uint8Array(3),
        new Uint8Array(12),
        new Uint8Array(0),
        new Uint8Array(0),
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MediaEngineError);
    expect(thrown).toBeInstanceOf(SdkError);
    expect(thrown).toBeInstanceOf(Error);
    // Not a ValidationError subclass: checkInput's warning log and callers' ValidationError checks are unchanged.
    expect(thrown).not.toBeInstanceOf(ValidationError);
    const error = thrown as MediaEngineError;
    expect(error.code).toBe('ERR_AEAD_INVALID_KEY_SIZE');
    expect(error.type).toBe(ErrorType.ValidationError);
    expect(error.name).toBe('MediaEngineError[ERR_AEAD_INVALID_KEY_SIZE]');
    expect(error.status).toBe(0);
    expect(error.retryable).toBe(false);
  });

  it('from() keeps the cause of an addon error it converts', () => {
    const addonError = Object.assign(new RangeError('bad key'), { code: 'ERR_AEAD_INVALID_KEY_SIZE' });
    const converted = MediaEngineError.from(addonError);
    expect(converted).toBeInstanceOf(MediaEngineError);
    expect((converted as MediaEngineError).cause).toBe(addonError);
    expect((converted as MediaEngineError).message).toBe('bad key');
    const other = new Error('something else');
    expect(MediaEngineError.from(other)).toBe(other);
  });
});

describe.each<{ kind: MediaEngineKind }>([{ kind: 'native' }, { kind: 'js' }])(
  'the $kind voice transport refuses alike',
  ({ kind }) => {
    /** What `call` threw. */
    function thrownBy(call: () => void): unknown {
      try {
        call();
      } catch (error) {
        return error;
      }
      return undefined;
    }

    it('with MediaEngineErrors that keep the transport codes', () => {
      const transport = createMediaEngine({ prefer: kind }).createVoiceTransport({
        serverHost: '127.0.0.1',
        serverPort: 9,
        ssrc: 1,
        discover: false,
      });
      const range = thrownBy(() => transport.setCaptureGain(11));
      expect(range).toBeInstanceOf(MediaEngineError);
      expect((range as MediaEngineError).code).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
      const mode = thrownBy(() => transport.setTransportKey('plain', new Uint8Array(32)));
      expect(mode).toBeInstanceOf(MediaEngineError);
      expect((mode as MediaEngineError).code).toBe('ERR_RTP_UNSUPPORTED_MODE');
      expect((mode as MediaEngineError).message).toBe('Unsupported transport encryption mode');
    });
  },
);
