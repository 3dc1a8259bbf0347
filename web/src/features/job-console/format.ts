/** A duration in seconds, as the console shows ages and lags: "4 s", "3 min", "2 h". */
export const formatSeconds = (s: number) =>
  s < 60 ? `${Math.round(s)} s` : s < 3600 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
