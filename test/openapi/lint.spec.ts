import { lintOpenApi } from './lint';

type Obj = Record<string, unknown>;

/** A small valid document; each case breaks one thing. */
function base(): Obj {
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'http://x' }],
    tags: [{ name: 'A' }],
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          summary: 'a thing',
          tags: ['A'],
          security: [{ key: ['read'] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            default: { $ref: '#/components/responses/Error' },
          },
        },
      },
      '/things': {
        post: {
          operationId: 'makeThing',
          summary: 'make one',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          responses: { 201: { description: 'made' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { n: { type: 'integer', minimum: 0, default: 1 } },
          required: ['n'],
          additionalProperties: false,
        },
      },
      responses: { Error: { description: 'error' } },
      securitySchemes: { key: { type: 'http', scheme: 'bearer' } },
    },
  };
}

const at = (doc: Obj, path: string[]): Obj => path.reduce((o, k) => o[k] as Obj, doc);

describe('lintOpenApi', () => {
  it('finds nothing wrong with a valid document', () => {
    expect(lintOpenApi(base())).toEqual([]);
  });

  it.each<[string, (d: Obj) => void, string]>([
    [
      'an OpenAPI version other than 3.1',
      (d) => {
        d.openapi = '3.0.3';
      },
      'openapi: must be 3.1.x',
    ],
    [
      'a dangling $ref',
      (d) => {
        at(d, ['components', 'schemas']).Other = { $ref: '#/components/schemas/Nope' };
      },
      'does not resolve',
    ],
    [
      'a repeated operationId',
      (d) => {
        at(d, ['paths', '/things', 'post']).operationId = 'getThing';
      },
      'operationId getThing repeats',
    ],
    [
      'a missing operationId',
      (d) => {
        delete at(d, ['paths', '/things', 'post']).operationId;
      },
      'operationId missing',
    ],
    [
      'a missing summary',
      (d) => {
        delete at(d, ['paths', '/things', 'post']).summary;
      },
      'summary missing',
    ],
    [
      'a path parameter not declared',
      (d) => {
        at(d, ['paths', '/things/{id}', 'get']).parameters = [];
      },
      'do not match the template',
    ],
    [
      'a path parameter not required',
      (d) => {
        (at(d, ['paths', '/things/{id}', 'get']).parameters as Obj[])[0].required = false;
      },
      'must be required',
    ],
    [
      'no success response',
      (d) => {
        at(d, ['paths', '/things', 'post']).responses = { 400: { description: 'no' } };
      },
      'no success response',
    ],
    [
      'a response without description',
      (d) => {
        at(d, ['paths', '/things', 'post']).responses = { 201: {} };
      },
      'needs a description',
    ],
    [
      'an undeclared security scheme',
      (d) => {
        at(d, ['paths', '/things/{id}', 'get']).security = [{ cookie: [] }];
      },
      'security scheme cookie is not declared',
    ],
    [
      'an undeclared tag',
      (d) => {
        at(d, ['paths', '/things/{id}', 'get']).tags = ['B'];
      },
      'tag B is not declared',
    ],
    [
      'a GET with a body',
      (d) => {
        at(d, ['paths', '/things/{id}', 'get']).requestBody = { content: { 'application/json': {} } };
      },
      'GET with a request body',
    ],
    [
      'a default that does not fit its schema',
      (d) => {
        at(d, ['components', 'schemas', 'Thing', 'properties', 'n']).default = -1;
      },
      'minimum',
    ],
    [
      'a required field that is not a property',
      (d) => {
        at(d, ['components', 'schemas', 'Thing']).required = ['m'];
      },
      'required m is not a property',
    ],
    [
      'an array without items',
      (d) => {
        at(d, ['components', 'schemas']).List = { type: 'array' };
      },
      'an array needs items',
    ],
    [
      'an unknown type',
      (d) => {
        at(d, ['components', 'schemas']).Bad = { type: 'date' };
      },
      'type date',
    ],
    [
      'two paths of the same shape',
      (d) => {
        at(d, ['paths'])['/things/{key}'] = {};
      },
      'ambiguous',
    ],
  ])('reports %s', (_name, breakIt, message) => {
    const doc = base();
    breakIt(doc);
    expect(lintOpenApi(doc)).toEqual(expect.arrayContaining([expect.stringContaining(message)]));
  });
});
