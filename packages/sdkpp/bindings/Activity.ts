import {
  ActivityPartyPrivacy,
  ActivityTypes,
  type Activity as CoreActivity,
  type StatusDisplayTypes,
} from '../src/index.js';
import { defined } from '../src/util/defined.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';

/** A rich presence image set, as the C++ SDK's `ActivityAssets`. */
export class ActivityAssets {
  #largeImage: string | undefined;
  #largeText: string | undefined;
  #largeUrl: string | undefined;
  #smallImage: string | undefined;
  #smallText: string | undefined;
  #smallUrl: string | undefined;
  #inviteCoverImage: string | undefined;
  /** The large image (asset key or URL). */
  LargeImage(): string | undefined {
    return this.#largeImage;
  }
  /** Sets the large image. */
  SetLargeImage(value: string | undefined): void {
    this.#largeImage = value;
  }
  /** The large image's hover text. */
  LargeText(): string | undefined {
    return this.#largeText;
  }
  /** Sets the large image's hover text. */
  SetLargeText(value: string | undefined): void {
    this.#largeText = value;
  }
  /** The URL opened by clicking the large image. */
  LargeUrl(): string | undefined {
    return this.#largeUrl;
  }
  /** Sets the URL opened by clicking the large image. */
  SetLargeUrl(value: string | undefined): void {
    this.#largeUrl = value;
  }
  /** The small image (asset key or URL). */
  SmallImage(): string | undefined {
    return this.#smallImage;
  }
  /** Sets the small image. */
  SetSmallImage(value: string | undefined): void {
    this.#smallImage = value;
  }
  /** The small image's hover text. */
  SmallText(): string | undefined {
    return this.#smallText;
  }
  /** Sets the small image's hover text. */
  SetSmallText(value: string | undefined): void {
    this.#smallText = value;
  }
  /** The URL opened by clicking the small image. */
  SmallUrl(): string | undefined {
    return this.#smallUrl;
  }
  /** Sets the URL opened by clicking the small image. */
  SetSmallUrl(value: string | undefined): void {
    this.#smallUrl = value;
  }
  /** The banner of invites sent from this activity. */
  InviteCoverImage(): string | undefined {
    return this.#inviteCoverImage;
  }
  /** Sets the banner of invites sent from this activity. */
  SetInviteCoverImage(value: string | undefined): void {
    this.#inviteCoverImage = value;
  }
  /** @internal */
  toCore(): NonNullable<CoreActivity['assets']> {
    return defined({
      largeImage: this.#largeImage,
      largeText: this.#largeText,
      largeUrl: this.#largeUrl,
      smallImage: this.#smallImage,
      smallText: this.#smallText,
      smallUrl: this.#smallUrl,
      inviteCoverImage: this.#inviteCoverImage,
    });
  }
}

/** Elapsed or remaining time, as the C++ SDK's `ActivityTimestamps` (Unix ms). */
export class ActivityTimestamps {
  #start = 0n;
  #end = 0n;
  /** The start time in ms, or 0. */
  Start(): bigint {
    return this.#start;
  }
  /** Sets the start time in ms (a countdown-up timer). */
  SetStart(value: bigint | number): void {
    this.#start = BigInt(value);
  }
  /** The end time in ms, or 0. */
  End(): bigint {
    return this.#end;
  }
  /** Sets the end time in ms (a countdown timer). */
  SetEnd(value: bigint | number): void {
    this.#end = BigInt(value);
  }
  /** @internal */
  toCore(): NonNullable<CoreActivity['timestamps']> {
    return defined({
      start: this.#start === 0n ? undefined : Number(this.#start),
      end: this.#end === 0n ? undefined : Number(this.#end),
    });
  }
}

/** The player's party, as the C++ SDK's `ActivityParty`. */
export class ActivityParty {
  #id = '';
  #currentSize = 0;
  #maxSize = 0;
  #privacy = ActivityPartyPrivacy.Private;
  /** The party id. */
  Id(): string {
    return this.#id;
  }
  /** Sets the party id (2–128 characters, the same for every member). */
  SetId(value: string): void {
    this.#id = value;
  }
  /** How many players are in the party. */
  CurrentSize(): number {
    return this.#currentSize;
  }
  /** Sets how many players are in the party (at least 1). */
  SetCurrentSize(value: number): void {
    this.#currentSize = value;
  }
  /** The party's capacity. */
  MaxSize(): number {
    return this.#maxSize;
  }
  /** Sets the party's capacity. */
  SetMaxSize(value: number): void {
    this.#maxSize = value;
  }
  /** Whether friends may join without asking. */
  Privacy(): ActivityPartyPrivacy {
    return this.#privacy;
  }
  /** Sets whether friends may join without asking. */
  SetPrivacy(value: ActivityPartyPrivacy): void {
    this.#privacy = value;
  }
  /** @internal */
  toCore(): NonNullable<CoreActivity['party']> {
    return { id: this.#id, currentSize: this.#currentSize, maxSize: this.#maxSize, privacy: this.#privacy };
  }
}

/** The join secret, as the C++ SDK's `ActivitySecrets`. */
export class ActivitySecrets {
  #join = '';
  /** The secret handed to players who join. */
  Join(): string {
    return this.#join;
  }
  /** Sets the join secret. */
  SetJoin(value: string): void {
    this.#join = value;
  }
}

/** A profile button, as the C++ SDK's `ActivityButton`. */
export class ActivityButton {
  #label = '';
  #url = '';
  /** The label (1–32 characters). */
  Label(): string {
    return this.#label;
  }
  /** Sets the label. */
  SetLabel(value: string): void {
    this.#label = value;
  }
  /** The URL opened by the button. */
  Url(): string {
    return this.#url;
  }
  /** Sets the URL opened by the button. */
  SetUrl(value: string): void {
    this.#url = value;
  }
}

/** A rich presence activity, as the C++ SDK's `Activity`. */
export class Activity {
  #type = ActivityTypes.Playing;
  #name: string | undefined;
  #state: string | undefined;
  #stateUrl: string | undefined;
  #details: string | undefined;
  #detailsUrl: string | undefined;
  #statusDisplayType: StatusDisplayTypes | undefined;
  #assets: ActivityAssets | undefined;
  #timestamps: ActivityTimestamps | undefined;
  #party: ActivityParty | undefined;
  #secrets: ActivitySecrets | undefined;
  #applicationId: string | undefined;
  #parentApplicationId: string | undefined;
  #supportedPlatforms: number | undefined;
  readonly #buttons: ActivityButton[] = [];

  /** The kind of activity. */
  Type(): ActivityTypes {
    return this.#type;
  }
  /** Sets the kind (Playing, Listening, Watching or Competing). */
  SetType(value: ActivityTypes): void {
    this.#type = value;
  }
  /** The displayed application name. */
  Name(): string {
    return this.#name ?? '';
  }
  /** Sets the displayed application name. */
  SetName(value: string): void {
    this.#name = value;
  }
  /** Line 3: the party state. */
  State(): string | undefined {
    return this.#state;
  }
  /** Sets the party state. */
  SetState(value: string | undefined): void {
    this.#state = value;
  }
  /** The URL opened by clicking the state. */
  StateUrl(): string | undefined {
    return this.#stateUrl;
  }
  /** Sets the URL opened by clicking the state. */
  SetStateUrl(value: string | undefined): void {
    this.#stateUrl = value;
  }
  /** Line 2: what the player does. */
  Details(): string | undefined {
    return this.#details;
  }
  /** Sets what the player does. */
  SetDetails(value: string | undefined): void {
    this.#details = value;
  }
  /** The URL opened by clicking the details. */
  DetailsUrl(): string | undefined {
    return this.#detailsUrl;
  }
  /** Sets the URL opened by clicking the details. */
  SetDetailsUrl(value: string | undefined): void {
    this.#detailsUrl = value;
  }
  /** Which field the status line shows. */
  StatusDisplayType(): StatusDisplayTypes | undefined {
    return this.#statusDisplayType;
  }
  /** Sets which field the status line shows. */
  SetStatusDisplayType(value: StatusDisplayTypes | undefined): void {
    this.#statusDisplayType = value;
  }
  /** The images. */
  Assets(): ActivityAssets | undefined {
    return this.#assets;
  }
  /** Sets the images. */
  SetAssets(value: ActivityAssets | undefined): void {
    this.#assets = value;
  }
  /** The timer. */
  Timestamps(): ActivityTimestamps | undefined {
    return this.#timestamps;
  }
  /** Sets the timer. */
  SetTimestamps(value: ActivityTimestamps | undefined): void {
    this.#timestamps = value;
  }
  /** The party. */
  Party(): ActivityParty | undefined {
    return this.#party;
  }
  /** Sets the party. */
  SetParty(value: ActivityParty | undefined): void {
    this.#party = value;
  }
  /** The join secret. */
  Secrets(): ActivitySecrets | undefined {
    return this.#secrets;
  }
  /** Sets the join secret. */
  SetSecrets(value: ActivitySecrets | undefined): void {
    this.#secrets = value;
  }
  /**
   * The application the activity belongs to: set on others' activities; the SDK fills in its own when it sends
   * one (a different id is refused).
   */
  ApplicationId(): bigint | undefined {
    return this.#applicationId === undefined ? undefined : idToBigInt(this.#applicationId);
  }
  /** Sets the application id (only this game's own is accepted when sent). */
  SetApplicationId(value: Uint64Like | undefined): void {
    this.#applicationId = value === undefined ? undefined : idToString(value);
  }
  /** The publisher (parent) application, on activities of a publisher's suite; the platform names it. */
  ParentApplicationId(): bigint | undefined {
    return this.#parentApplicationId === undefined ? undefined : idToBigInt(this.#parentApplicationId);
  }
  /** Sets the parent application id (kept on this object; the platform names the parent, so it is not sent). */
  SetParentApplicationId(value: Uint64Like | undefined): void {
    this.#parentApplicationId = value === undefined ? undefined : idToString(value);
  }
  /** Where the activity can be joined (ActivityGamePlatforms flags); undefined: wherever the game runs. */
  SupportedPlatforms(): number | undefined {
    return this.#supportedPlatforms;
  }
  /** Sets where the activity can be joined, e.g. `ActivityGamePlatforms.Desktop | ActivityGamePlatforms.IOS`. */
  SetSupportedPlatforms(value: number | undefined): void {
    this.#supportedPlatforms = value;
  }
  /** Adds a profile button (at most two are accepted). */
  AddButton(button: ActivityButton): void {
    this.#buttons.push(button);
  }
  /** The profile buttons. */
  GetButtons(): ActivityButton[] {
    return [...this.#buttons];
  }

  /** True when every field of `other` equals this one's (the C++ `Activity::Equals`). */
  Equals(other: Activity): boolean {
    return JSON.stringify(this.toCore()) === JSON.stringify(other.toCore());
  }

  /** @internal The idiomatic activity the core client takes. */
  toCore(): CoreActivity {
    const secret = this.#secrets?.Join();
    return defined<CoreActivity>({
      type: this.#type,
      name: this.#name,
      state: this.#state,
      stateUrl: this.#stateUrl,
      details: this.#details,
      detailsUrl: this.#detailsUrl,
      statusDisplayType: this.#statusDisplayType,
      assets: this.#assets?.toCore(),
      timestamps: this.#timestamps?.toCore(),
      party: this.#party?.toCore(),
      secrets: secret ? { join: secret } : undefined,
      buttons:
        this.#buttons.length > 0 ? this.#buttons.map((b) => ({ label: b.Label(), url: b.Url() })) : undefined,
      applicationId: this.#applicationId,
      parentApplicationId: this.#parentApplicationId,
      supportedPlatforms: this.#supportedPlatforms,
    });
  }

  /** @internal An activity received from the core API. */
  static fromCore(core: CoreActivity): Activity {
    const activity = new Activity();
    activity.#type = core.type;
    activity.#name = core.name;
    activity.#state = core.state;
    activity.#stateUrl = core.stateUrl;
    activity.#details = core.details;
    activity.#detailsUrl = core.detailsUrl;
    activity.#statusDisplayType = core.statusDisplayType;
    activity.#applicationId = core.applicationId;
    activity.#parentApplicationId = core.parentApplicationId;
    activity.#supportedPlatforms = core.supportedPlatforms;
    if (core.party) {
      const party = new ActivityParty();
      party.SetId(core.party.id);
      party.SetCurrentSize(core.party.currentSize);
      party.SetMaxSize(core.party.maxSize);
      party.SetPrivacy(core.party.privacy ?? ActivityPartyPrivacy.Private);
      activity.#party = party;
    }
    if (core.assets) {
      const assets = new ActivityAssets();
      assets.SetLargeImage(core.assets.largeImage);
      assets.SetLargeText(core.assets.largeText);
      assets.SetLargeUrl(core.assets.largeUrl);
      assets.SetSmallImage(core.assets.smallImage);
      assets.SetSmallText(core.assets.smallText);
      assets.SetSmallUrl(core.assets.smallUrl);
      assets.SetInviteCoverImage(core.assets.inviteCoverImage);
      activity.#assets = assets;
    }
    if (core.timestamps) {
      const timestamps = new ActivityTimestamps();
      if (core.timestamps.start !== undefined) timestamps.SetStart(core.timestamps.start);
      if (core.timestamps.end !== undefined) timestamps.SetEnd(core.timestamps.end);
      activity.#timestamps = timestamps;
    }
    for (const b of core.buttons ?? []) {
      const button = new ActivityButton();
      button.SetLabel(b.label);
      button.SetUrl(b.url);
      activity.#buttons.push(button);
    }
    return activity;
  }
}
