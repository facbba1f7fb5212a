/**
 * Route access rules, read by the AuthGuard. A route without any of these needs a signed-in
 * caller with scope `read`.
 */
import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Caller } from './caller';
import type { KeyScope } from './scope';

export const PUBLIC = 'auth:public';
export const SCOPE = 'auth:scope';
export const SESSION_ONLY = 'auth:session-only';
export const STEP_UP = 'auth:step-up';

/** No sign-in needed. */
export const Public = () => SetMetadata(PUBLIC, true);
/** The least API-key scope that may call the route (sessions pass every scope check). */
export const Scope = (scope: KeyScope) => SetMetadata(SCOPE, scope);
/** Owner session only: API keys get 403 forbidden. */
export const SessionOnly = () => SetMetadata(SESSION_ONLY, true);
/** A session must have signed in or stepped up within 12 hours; API keys are never asked. */
export const StepUp = () => SetMetadata(STEP_UP, true);

/** The resolved caller of the current request (null on public routes without credentials). */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Caller | null =>
    ctx.switchToHttp().getRequest<{ caller?: Caller }>().caller ?? null,
);
