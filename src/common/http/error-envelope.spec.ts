import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ApiError, ErrorCode } from './api-error';
import { ErrorResponse, toErrorResponse } from './error-envelope';

const INTERNAL: ErrorResponse = {
  status: 500,
  body: { error: { code: 'internal', message: 'internal error' } },
  headers: {},
  unexpected: true,
};

describe('toErrorResponse for ApiError', () => {
  it.each<[string, ApiError, ErrorResponse]>([
    [
      'a plain not_found',
      ApiError.notFound('monitor'),
      {
        status: 404,
        body: { error: { code: 'not_found', message: 'monitor not found' } },
        headers: {},
        unexpected: false,
      },
    ],
    [
      'an invalid with field and fields',
      ApiError.invalid([
        { field: 'http.url', message: 'must be a URL' },
        { field: 'name', message: 'must not be empty' },
      ]),
      {
        status: 422,
        body: {
          error: {
            code: 'invalid',
            message: 'http.url: must be a URL',
            field: 'http.url',
            fields: [
              { field: 'http.url', message: 'must be a URL' },
              { field: 'name', message: 'must not be empty' },
            ],
          },
        },
        headers: {},
        unexpected: false,
      },
    ],
    [
      'a too_many_requests with Retry-After',
      new ApiError('too_many_requests', 'slow down', { headers: { 'Retry-After': '7' } }),
      {
        status: 429,
        body: { error: { code: 'too_many_requests', message: 'slow down' } },
        headers: { 'Retry-After': '7' },
        unexpected: false,
      },
    ],
    [
      'a step_up',
      new ApiError('step_up', 'sign in again'),
      { status: 403, body: { error: { code: 'step_up', message: 'sign in again' } }, headers: {}, unexpected: false },
    ],
    [
      'an internal raised on purpose',
      new ApiError('internal', 'database is locked'),
      {
        status: 500,
        body: { error: { code: 'internal', message: 'database is locked' } },
        headers: {},
        unexpected: false,
      },
    ],
  ])('passes %s through unchanged', (_label, err, expected) => {
    expect(toErrorResponse(err)).toEqual(expected);
  });
});

describe('toErrorResponse for Nest HttpExceptions', () => {
  it.each<[string, number, ErrorCode, string, HttpException]>([
    ['NotFoundException', 404, 'not_found', 'no such route', new NotFoundException('Cannot GET /nope')],
    // A wrong method is answered like an unknown route, keeping Nest's text.
    ['MethodNotAllowedException', 404, 'not_found', 'Method Not Allowed', new MethodNotAllowedException()],
    ['BadRequestException with a message', 400, 'bad_request', 'bad header', new BadRequestException('bad header')],
    [
      'BadRequestException with a list of messages',
      400,
      'bad_request',
      'a is wrong; b is wrong',
      new BadRequestException(['a is wrong', 'b is wrong']),
    ],
    ['HttpException with a string body', 400, 'bad_request', 'teapot', new HttpException('teapot', 418)],
    ['UnauthorizedException', 401, 'sign_in', 'who are you', new UnauthorizedException('who are you')],
    ['ForbiddenException', 403, 'forbidden', 'no', new ForbiddenException('no')],
    ['ConflictException', 409, 'conflict', 'taken', new ConflictException('taken')],
    ['PayloadTooLargeException', 400, 'bad_request', 'too big', new PayloadTooLargeException('too big')],
    ['UnsupportedMediaTypeException', 400, 'bad_request', 'xml?', new UnsupportedMediaTypeException('xml?')],
    ['UnprocessableEntityException', 422, 'invalid', 'nope', new UnprocessableEntityException('nope')],
    [
      'a 429 HttpException',
      429,
      'too_many_requests',
      'later',
      new HttpException('later', HttpStatus.TOO_MANY_REQUESTS),
    ],
  ])('maps %s to %i %s', (_label, status, code, message, err) => {
    expect(toErrorResponse(err)).toEqual({
      status,
      body: { error: { code, message } },
      headers: {},
      unexpected: false,
    });
  });

  it.each<[string, number, ErrorCode, HttpException]>([
    ['InternalServerErrorException', 500, 'internal', new InternalServerErrorException('stack: /srv/db.sqlite')],
    ['BadGatewayException', 500, 'internal', new BadGatewayException('upstream 10.0.0.5 down')],
    ['ServiceUnavailableException', 503, 'unavailable', new ServiceUnavailableException('pool /srv exhausted')],
  ])('maps %s to %i %s, hides its message and flags it for the log', (_label, status, code, err) => {
    expect(toErrorResponse(err)).toEqual({
      status,
      body: { error: { code, message: 'internal error' } },
      headers: {},
      unexpected: true,
    });
  });
});

describe('toErrorResponse for anything else', () => {
  it.each<[string, unknown]>([
    ['a plain Error', new Error('SQLITE_CORRUPT: /var/lib/farsight/farsight.db')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'secret')")],
    ['a thrown string', 'password=hunter2'],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['an object with a status', { status: 404, message: 'fake' }],
    ['an object with a non-string type', { type: 42 }],
  ])('answers %s as 500 internal without details', (_label, err) => {
    const response = toErrorResponse(err);
    expect(response).toEqual(INTERNAL);
    expect(JSON.stringify(response.body)).not.toMatch(/SQLITE|farsight\.db|secret|hunter2|fake/);
  });
});
