// The part of cli-progress 3's API the Sirene import uses (the package ships no types).
declare module 'cli-progress' {
  interface BarOptions {
    format?: string;
    stream?: NodeJS.WritableStream;
    hideCursor?: boolean;
    clearOnComplete?: boolean;
    barsize?: number;
    etaBuffer?: number;
  }
  export class SingleBar {
    constructor(options: BarOptions, preset?: unknown);
    start(total: number, start: number, payload?: Record<string, unknown>): void;
    update(value: number, payload?: Record<string, unknown>): void;
    setTotal(total: number): void;
    stop(): void;
  }
  export const Presets: { shades_classic: unknown; shades_grey: unknown; rect: unknown; legacy: unknown };
}
