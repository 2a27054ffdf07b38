import type { ChannelHandle as CoreChannelHandle, ChannelType } from '../src/index.js';
import { idToBigInt } from './ids.js';

/** A channel (for a direct message: the conversation, whose id is the other user's id), as the C++ `ChannelHandle`. */
export class ChannelHandle {
  readonly #core: CoreChannelHandle;

  /** @internal Created by the client. */
  constructor(core: CoreChannelHandle) {
    this.#core = core;
  }
  /** The channel id. */
  Id(): bigint {
    return idToBigInt(this.#core.id);
  }
  /** The channel's name; a direct message is named after the other user. */
  Name(): string {
    return this.#core.name;
  }
  /** For direct messages, the ids of the other participants. */
  Recipients(): bigint[] {
    return this.#core.recipients.map((id) => idToBigInt(id));
  }
  /** The kind of channel (`ChannelType.EphemeralDm` for game direct messages). */
  Type(): ChannelType {
    return this.#core.type;
  }
}
