import { registerDecorator, type ValidationArguments } from 'class-validator';

/** A plain JSON object whose serialized form is at most `maxBytes` bytes (UTF-8). */
export function BoundedJsonObject(maxBytes: number): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'boundedJsonObject',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [maxBytes],
      options: {
        message: (args: ValidationArguments) =>
          `${args.property} must be a JSON object of at most ${maxBytes} bytes`,
      },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          return Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes;
        },
      },
    });
  };
}
