/**
 * The routes a running app serves through its framework, read two ways and joined: the HTTP
 * router's own table (what is really registered, whoever registered it) and Nest's controller
 * metadata (the handler, and so its access decorators and success status). Paths come out in
 * OpenAPI style (`/api/v1/monitors/{id}`).
 */
import type { INestApplication, Type } from '@nestjs/common';
import { HttpStatus, RequestMethod } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  RESPONSE_PASSTHROUGH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { PUBLIC, SCOPE, SESSION_ONLY, STEP_UP } from '../../src/common/access/access';
import type { KeyScope } from '../../src/common/access/scope';

export interface AppRoute {
  method: string;
  path: string;
  /** null: the router has it but no Nest controller declares it. */
  handler: {
    controller: Type<unknown>;
    name: string;
    access: { public: boolean; scope: KeyScope; sessionOnly: boolean; stepUp: boolean };
    /** The status a success answers with: @HttpCode, else Nest's default (201 for POST, 200 otherwise). */
    status: number;
    /** Takes the response object (@Res): it may set another status than `status`. */
    usesResponse: boolean;
    /** Takes it without `passthrough`: it writes the answer itself, past the interceptors. */
    writesItself: boolean;
    /** @NeverReplayed: the route ignores Idempotency-Key (its requests carry passwords or codes). */
    neverReplayed: boolean;
  } | null;
}

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const openApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What the HTTP router has: `METHOD /path` of every route layer. */
export function routerRoutes(app: INestApplication): { method: string; path: string }[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: Layer[] }; _router?: { stack: Layer[] } };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const out: { method: string; path: string }[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all')
        out.push({ method: method.toUpperCase(), path: openApiPath(String(layer.route.path)) });
    }
  }
  return out;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

export function appRoutes(app: INestApplication): AppRoute[] {
  const handlers = new Map<string, AppRoute['handler']>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown>;
      const bases = asList(Reflect.getMetadata(PATH_METADATA, controller));
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        // Read as a descriptor: a getter on the controller (not a route) must not run on the prototype.
        const fn = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (typeof fn !== 'function' || name === 'constructor') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as number];
        const meta = <T>(k: string): T | undefined =>
          (Reflect.getMetadata(k, fn) ?? Reflect.getMetadata(k, controller)) as T | undefined;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
        const takesResponse = Object.keys(args).some((k) => Number(k.split(':')[0]) === RouteParamtypes.RESPONSE);
        const passthrough = Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, controller, name) === true;
        const handler: AppRoute['handler'] = {
          controller,
          name,
          access: {
            public: meta<boolean>(PUBLIC) === true,
            scope: meta<KeyScope>(SCOPE) ?? 'read',
            sessionOnly: meta<boolean>(SESSION_ONLY) === true,
            stepUp: meta<boolean>(STEP_UP) === true,
          },
          status:
            (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ??
            (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK),
          usesResponse: takesResponse,
          writesItself: takesResponse && !passthrough,
          neverReplayed: Reflect.getMetadata('idempotency:never', fn) === true,
        };
        for (const base of bases) for (const p of asList(paths)) handlers.set(key(method, join(base, p)), handler);
      }
    }
  }
  return routerRoutes(app).map((r) => ({ ...r, handler: handlers.get(key(r.method, r.path)) ?? null }));
}

function asList(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [v === undefined ? '' : String(v)];
}

function join(base: string, path: string): string {
  const parts = [base, path].map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  return openApiPath(`/${parts.join('/')}`);
}
