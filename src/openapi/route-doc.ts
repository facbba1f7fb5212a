/**
 * One row of the route table: what a route takes and answers, and who may call it. The rows
 * (routes/*.ts) are the single source of the route description; the e2e tests hold them against
 * the routes the app registers and the access rules on their handlers. Pure types.
 */
import type { JsonSchema, QueryParam } from '../common/validation/common.schema';
import type { KeyScope } from '../common/access/scope';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';

export type Access =
  /** No sign-in (common/access/access.ts @Public). */
  | { public: true }
  /**
   * The least API-key scope (a session passes every scope check), `sessionOnly` for owner-session
   * routes (@SessionOnly) and `stepUp` when a session must have signed in within 12 hours (@StepUp).
   */
  | { public?: false; scope: KeyScope; sessionOnly?: boolean; stepUp?: boolean };

export interface Body {
  schema: JsonSchema;
  /** Default true. */
  required?: boolean;
  /** Default `application/json`. */
  type?: string;
  description?: string;
}

export interface Answer {
  description: string;
  /** A JSON answer's schema (or the schema of `type`). */
  schema?: JsonSchema;
  /** Default `application/json` when a schema is given. */
  type?: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface RouteDoc {
  method: HttpMethod;
  /** The full path from the server root, OpenAPI template style: `/api/v1/monitors/{id}`. */
  path: string;
  /** operationId: unique, camelCase. */
  id: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** Rules finer than the route's (one field needs admin, ...). */
  accessNote?: string;
  /** Path parameters; a parameter not listed here is a string described by PATH_PARAMS. */
  params?: Record<string, { schema?: JsonSchema; description: string }>;
  query?: QueryParam[];
  body?: Body;
  answers: Record<number, Answer>;
  /** Error statuses this route has beyond the ones its access, parameters and body imply. */
  errors?: number[];
  /** Answered by the HTTP server ahead of the framework (heartbeat pings): its errors are plain text. */
  servedAhead?: true;
  /** Routes beyond the spec's tables say why they exist. */
  extra?: string;
}
