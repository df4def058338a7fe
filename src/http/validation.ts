import { ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ErrorDetail } from '../common/errors';
import { validationError } from './errors/error-response';

/** Flattens class-validator's tree into one detail per failed field (dotted paths). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

/**
 * Strict DTO validation: unknown fields are rejected (not silently dropped), no implicit type coercion of
 * bodies, and every failure is a 422 that names the fields.
 */
export function strictValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationError(flattenValidationErrors(errors)),
  });
}
