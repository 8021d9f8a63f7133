/** The slice of a pino logger the PostgreSQL infrastructure uses; a pino Logger satisfies it. */
export interface InfraLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: InfraLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
