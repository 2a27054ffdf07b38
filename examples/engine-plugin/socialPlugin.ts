/**
 * The social plugin: the C++ SDK's getting-started flow written against `sdkpp/bindings`, in the same order
 * and with the same names, so a C++ reader can hold the two side by side. The matching C++ line is in the
 * comment above each step. Everything the SDK answers arrives in callbacks that `RunCallbacks()` delivers,
 * and the engine calls it once per frame from `onUpdate`.
 */
import {
  Activity,
  ActivityTypes,
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  LoggingSeverity,
  RelationshipType,
  RunCallbacks,
  type ClientResult,
} from 'sdkpp/bindings';

import type { EngineContext, EnginePlugin } from './engine.js';
import { say } from './print.js';

/** Where the plugin finds the platform, as a game's settings would give it. */
export interface SocialPluginSettings {
  /** The game's application id. */
  applicationId: string;
  /** The platform's API base (for the emulator: its `api` address). */
  apiBase: string;
  /** The platform's web base, which serves the consent page (for the emulator: its `http` address). */
  webBase: string;
  /** Opens the authorize page for the player; a real game leaves this to the system browser. */
  openUrl: (url: string) => Promise<void>;
  /** The rich presence to show once signed in. */
  presence: { details: string; state: string };
}

/** How far the plugin has got, for the rest of the game to read. */
export type SocialPhase = 'signing-in' | 'ready' | 'presence-set' | 'failed';

/** An engine plugin that signs the player in, counts their friends and sets their rich presence. */
export class SocialPlugin implements EnginePlugin {
  readonly name = 'social';
  /** How far the flow has got. */
  phase: SocialPhase = 'signing-in';
  /** The signed-in user's id, once Ready. */
  userId = 0n;
  readonly #settings: SocialPluginSettings;
  #client: Client | undefined;
  #engine: EngineContext | undefined;

  constructor(settings: SocialPluginSettings) {
    this.#settings = settings;
  }

  onLoad(engine: EngineContext): void {
    this.#engine = engine;
    const APPLICATION_ID = this.#settings.applicationId;

    // auto client = std::make_shared<discordpp::Client>();
    // (The settings replace the defaults, the platform's real addresses and the system browser.)
    const client = new Client({
      apiBase: this.#settings.apiBase,
      webBase: this.#settings.webBase,
      openUrl: this.#settings.openUrl,
      // Presence goes through the gateway here; a desktop client on the developer's machine stays out of it.
      localClient: false,
    });
    this.#client = client;

    // client->AddLogCallback([](auto message, auto severity) { … }, discordpp::LoggingSeverity::Info);
    client.AddLogCallback((message, severity) => {
      say('sdk', `${LoggingSeverity[severity]}: ${message}`);
    }, LoggingSeverity.Info);

    // client->SetStatusChangedCallback([client](auto status, auto error, auto errorDetail) { … });
    client.SetStatusChangedCallback((status, error, errorDetail) => {
      say('social', `status changed: ${Client.StatusToString(status)}`);
      if (status === Client.Status.Ready) {
        this.#onReady(client);
      } else if (error !== Client.Error.None) {
        this.#fail(`connection error: ${Client.ErrorToString(error)} (detail ${errorDetail})`);
      }
    });

    // auto codeVerifier = client->CreateAuthorizationCodeVerifier();
    const codeVerifier = client.CreateAuthorizationCodeVerifier();

    // discordpp::AuthorizationArgs args{};  — and the same three setters, with the same arguments
    const args = new AuthorizationArgs();
    args.SetClientId(APPLICATION_ID);
    args.SetScopes(Client.GetDefaultPresenceScopes()); // discordpp::Client::GetDefaultPresenceScopes()
    args.SetCodeChallenge(codeVerifier.Challenge());

    // client->Authorize(args, [client, codeVerifier](auto result, auto code, auto redirectUri) { … });
    say('social', 'authorizing: the player approves the game on the consent page');
    client.Authorize(args, (result, code, redirectUri) => {
      if (!result.Successful()) {
        this.#failWith('authorization', result);
        return;
      }
      say('social', 'authorized; exchanging the code for an access token');

      // client->GetToken(APPLICATION_ID, code, codeVerifier.Verifier(), redirectUri, [client](…) { … });
      client.GetToken(
        APPLICATION_ID,
        code,
        codeVerifier.Verifier(),
        redirectUri,
        (result, accessToken, _refreshToken, _tokenType, expiresIn, scopes) => {
          if (!result.Successful()) {
            this.#failWith('token exchange', result);
            return;
          }
          say('social', `access token received (scopes "${scopes}", valid ${expiresIn} s); connecting`);

          // client->UpdateToken(discordpp::AuthorizationTokenType::Bearer, accessToken, [client](auto result) { … });
          client.UpdateToken(AuthorizationTokenType.Bearer, accessToken, (result) => {
            if (!result.Successful()) {
              this.#failWith('token update', result);
              return;
            }
            // client->Connect();
            client.Connect();
          });
        },
      );
    });
  }

  onUpdate(): void {
    // discordpp::RunCallbacks();  — the C++ guide's main loop; here the engine's frame drives it.
    RunCallbacks();
  }

  async onUnload(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    // client->Disconnect();
    client.Disconnect();
    // The engine has stopped ticking, so the plugin pumps the last callbacks (Disconnecting, Disconnected).
    const deadline = Date.now() + 3000;
    while (client.GetStatus() !== Client.Status.Disconnected && Date.now() < deadline) {
      RunCallbacks();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    RunCallbacks();
  }

  /** The guide's work once Ready: count the friends, then show what the player is doing. */
  #onReady(client: Client): void {
    const me = client.GetCurrentUserV2();
    this.userId = me?.Id() ?? 0n;
    say('social', `Ready: signed in as ${me?.DisplayName() ?? '?'} (@${me?.Username() ?? '?'})`);

    // client->GetRelationships().size()
    const relationships = client.GetRelationships();
    const friends = relationships.filter((r) => r.DiscordRelationshipType() === RelationshipType.Friend);
    say('social', `relationships: ${relationships.length}, friends: ${friends.length}`);
    for (const friend of friends) say('social', `  friend: ${friend.User()?.DisplayName() ?? friend.Id()}`);
    this.phase = 'ready';

    // discordpp::Activity activity;
    const activity = new Activity();
    // activity.SetType(discordpp::ActivityTypes::Playing);
    activity.SetType(ActivityTypes.Playing);
    // activity.SetState(…);
    activity.SetState(this.#settings.presence.state);
    // activity.SetDetails(…);
    activity.SetDetails(this.#settings.presence.details);

    // client->UpdateRichPresence(activity, [](discordpp::ClientResult result) { … });
    client.UpdateRichPresence(activity, (result) => {
      if (!result.Successful()) {
        this.#failWith('rich presence update', result);
        return;
      }
      say(
        'social',
        `rich presence set: Playing, "${activity.Details() ?? ''}" / "${activity.State() ?? ''}"`,
      );
      this.phase = 'presence-set';
    });
  }

  #failWith(step: string, result: ClientResult): void {
    this.#fail(`${step} failed: ${result.ToString()}`);
  }

  #fail(message: string): void {
    say('social', message);
    this.phase = 'failed';
    this.#engine?.quit(1);
  }
}
