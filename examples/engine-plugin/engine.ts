/**
 * A tiny game engine host, standing in for a JS engine that loads plugins: a fixed-timestep game loop
 * (the simulation always advances in steps of the same length, however irregular the real frames are) and
 * a plugin interface with `onLoad`, `onUpdate(dt)` and `onUnload`.
 */

/** What the engine gives each plugin when it loads it. */
export interface EngineContext {
  /** The length of one simulation step, in seconds. */
  readonly stepSeconds: number;
  /** How many steps have run so far. */
  readonly frame: number;
  /** Ends the game loop after the current step; the engine then unloads every plugin. */
  quit(exitCode?: number): void;
}

/** A plugin as the engine sees it. */
export interface EnginePlugin {
  /** Shown in the engine's own messages. */
  readonly name: string;
  /** Called once, before the first step. */
  onLoad(engine: EngineContext): void;
  /** Called once per simulation step, with the step's length in seconds. */
  onUpdate(dt: number): void;
  /** Called once after the last step, in the reverse order of loading. */
  onUnload(): void | Promise<void>;
}

/** Options of {@link Engine}. */
export interface EngineOptions {
  /** Simulation steps per second. @defaultValue 60 */
  stepsPerSecond?: number;
  /**
   * The most simulated time one real frame may catch up on, in seconds; after a long stall the simulation
   * slows down rather than running hundreds of steps at once. @defaultValue 0.25
   */
  maxCatchUpSeconds?: number;
}

/** The engine: loads plugins, runs the fixed-timestep loop until a plugin quits, unloads them. */
export class Engine {
  readonly #plugins: EnginePlugin[] = [];
  readonly #stepSeconds: number;
  readonly #maxCatchUpSeconds: number;
  #frame = 0;
  #exitCode: number | undefined;

  constructor(options: EngineOptions = {}) {
    this.#stepSeconds = 1 / (options.stepsPerSecond ?? 60);
    this.#maxCatchUpSeconds = options.maxCatchUpSeconds ?? 0.25;
  }

  /** How many simulation steps have run. */
  get frame(): number {
    return this.#frame;
  }

  /** Adds a plugin; plugins load and update in the order they were added. */
  addPlugin(plugin: EnginePlugin): this {
    this.#plugins.push(plugin);
    return this;
  }

  /** Runs the game until a plugin calls `quit`; resolves with the exit code it gave. */
  async run(): Promise<number> {
    const engine = this.#context();
    for (const plugin of this.#plugins) plugin.onLoad(engine);

    let previous = performance.now();
    let accumulated = 0;
    while (this.#exitCode === undefined) {
      await nextFrame(this.#stepSeconds);
      const now = performance.now();
      accumulated = Math.min(accumulated + (now - previous) / 1000, this.#maxCatchUpSeconds);
      previous = now;
      while (accumulated >= this.#stepSeconds && this.#exitCode === undefined) {
        for (const plugin of this.#plugins) plugin.onUpdate(this.#stepSeconds);
        this.#frame += 1;
        accumulated -= this.#stepSeconds;
      }
    }

    for (const plugin of [...this.#plugins].reverse()) await plugin.onUnload();
    return this.#exitCode;
  }

  #context(): EngineContext {
    // Plugins see the live frame count through a getter, not a copy taken at load time.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the context reads the engine's private state
    const engine = this;
    return {
      stepSeconds: this.#stepSeconds,
      get frame() {
        return engine.#frame;
      },
      quit(exitCode = 0) {
        engine.#exitCode ??= exitCode;
      },
    };
  }
}

/** Yields to the event loop until about one step has passed, as a renderer's frame callback would. */
function nextFrame(stepSeconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, stepSeconds * 1000));
}
