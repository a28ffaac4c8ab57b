export type ReplayDecodeErrorCode =
  | 'bad_encoding'
  | 'bad_magic'
  | 'unsupported_version'
  | 'truncated'
  | 'too_large'
  | 'invalid_field'
  | 'trailing_data';

/** The only error decodeReplay throws; `code` is stable for API responses, the message names the field. */
export class ReplayDecodeError extends Error {
  override readonly name = 'ReplayDecodeError';
  constructor(
    readonly code: ReplayDecodeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type ReplayErrorCode = 'unsupported_rules_version' | 'invalid_replay';

/** Thrown by simulateReplay / encodeReplay for a replay object that breaks the format's rules. */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
  constructor(
    readonly code: ReplayErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by createGame for a configuration outside the documented bounds. */
export class GameConfigError extends Error {
  override readonly name = 'GameConfigError';
}
