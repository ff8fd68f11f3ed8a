/** The periods of the figures of the server's lifecycle machines (issue 24), in days: the contract's `days`. */
export const FIGURES_PERIODS = [7, 30, 90] as const;
export type FiguresPeriod = (typeof FIGURES_PERIODS)[number];
export const DEFAULT_FIGURES_PERIOD: FiguresPeriod = 30;
