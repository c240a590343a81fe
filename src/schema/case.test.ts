import { describe, expect, it } from 'vitest';
import {
  camelPathToSnake,
  camelToSnake,
  isPlainObject,
  snakePathToCamel,
  snakeToCamel,
  toCamelDeep,
  toSnakeDeep,
} from './case.ts';

describe('camelToSnake / snakeToCamel', () => {
  it.each([
    ['nameDe', 'name_de'],
    ['emailTo', 'email_to'],
    ['subProductVariantId', 'sub_product_variant_id'],
    ['id', 'id'],
    ['address2Line', 'address2_line'],
    ['userID', 'user_i_d'],
  ])('%s <-> %s', (camel, snake) => {
    expect(camelToSnake(camel)).toBe(snake);
    expect(snakeToCamel(snake)).toBe(camel);
  });

  it('keeps what has no counterpart: leading and doubled underscores, digits after _', () => {
    expect(snakeToCamel('_id')).toBe('_id');
    expect(snakeToCamel('a__b')).toBe('a__b');
    expect(snakeToCamel('address_2')).toBe('address_2');
    expect(snakeToCamel('trailing_')).toBe('trailing_');
    expect(camelToSnake('Id')).toBe('Id');
    expect(camelToSnake('_Id')).toBe('_Id');
    expect(camelToSnake('already_snake')).toBe('already_snake');
  });

  it('is lossless for generated identifiers in both directions', () => {
    // Small deterministic generator (no randomness between runs).
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const word = (first: string) => {
      let out = first;
      for (let i = next(6); i > 0; i--) out += lower[next(lower.length)];
      return out;
    };
    for (let i = 0; i < 500; i++) {
      const parts = [word('abcdefghijklmnopqrstuvwxyz'[next(26)])];
      for (let j = next(4); j > 0; j--) parts.push(word(lower[next(lower.length)]));
      const snake = parts.join('_');
      expect(camelToSnake(snakeToCamel(snake))).toBe(snake);
      const camel = parts
        .map((part, index) => (index === 0 ? part : part[0].toUpperCase() + part.slice(1)))
        .join('');
      expect(snakeToCamel(camelToSnake(camel))).toBe(camel);
    }
  });

  it('converts dotted paths segment by segment', () => {
    expect(snakePathToCamel('email_to.0.email')).toBe('emailTo.0.email');
    expect(camelPathToSnake('emailSettings.feedbackTo')).toBe('email_settings.feedback_to');
  });
});

describe('toCamelDeep / toSnakeDeep', () => {
  it('converts keys deeply, through nested objects and arrays of objects', () => {
    const wire = {
      name_de: 'Allianz',
      email_settings: { email_to: [{ email_address: 'a@b.ch', is_primary: true }] },
      sub_products: [{ sub_product_variant_id: 3 }, 7, null],
    };
    const browser = {
      nameDe: 'Allianz',
      emailSettings: { emailTo: [{ emailAddress: 'a@b.ch', isPrimary: true }] },
      subProducts: [{ subProductVariantId: 3 }, 7, null],
    };
    expect(toCamelDeep(wire)).toEqual(browser);
    expect(toSnakeDeep(browser)).toEqual(wire);
  });

  it('never changes values, only keys', () => {
    const date = new Date('2024-01-02T03:04:05Z');
    const out = toSnakeDeep({ someText: 'keepCamelInValues', createdAt: date, list: ['a_b'] });
    expect(out).toEqual({ some_text: 'keepCamelInValues', created_at: date, list: ['a_b'] });
    expect((out as { created_at: unknown }).created_at).toBe(date);
    expect(toCamelDeep('snake_value')).toBe('snake_value');
    expect(toCamelDeep(null)).toBeNull();
    expect(toCamelDeep(12)).toBe(12);
  });

  it('does not enter class instances', () => {
    class Point {
      constructor(readonly x_pos: number) {}
    }
    const point = new Point(1);
    const out = toCamelDeep({ the_point: point }) as { thePoint: Point };
    expect(out.thePoint).toBe(point);
    expect(Object.keys(out.thePoint)).toEqual(['x_pos']);
  });

  it('returns copies and leaves the input untouched', () => {
    const input = { a_b: { c_d: 1 } };
    const out = toCamelDeep(input);
    expect(out).toEqual({ aB: { cD: 1 } });
    expect(input).toEqual({ a_b: { c_d: 1 } });
  });

  it('keeps a __proto__ key as a plain key without changing the prototype', () => {
    const parsed: unknown = JSON.parse('{"__proto__": {"is_admin": true}, "a_b": 1}');
    const out = toCamelDeep(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(out.aB).toBe(1);
  });
});

describe('isPlainObject', () => {
  it('accepts literals and null-prototype objects, refuses arrays, dates and null', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});
