import { ValidateIf } from 'class-validator';

/** Optional means "may be left out": an explicit null is still validated (and so rejected), unlike @IsOptional. */
export const Optional = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);

/** At least one non-space character. */
export const NOT_BLANK = /\S/;
