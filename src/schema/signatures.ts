/**
 * The rules of online signatures that the server and the signing page share (issue 19): which
 * documents can be sent, how long a link may last, a drawn signature's shape and what counts as
 * one (less ink than MIN_INK is a tap or a slip, not a signature).
 */

/** The document types that can be sent for signing. */
export const SIGNABLE_TYPES = ['mandate', 'advice_protocol', 'application'] as const;

/** Days a signing link is valid: default and most. */
export const LINK_DAYS = { default: 14, max: 60 } as const;

/** What the signer drew: the pad's size (CSS pixels) and its strokes as flat [x0, y0, x1, y1, …]. */
export interface DrawnSignature {
  width: number;
  height: number;
  strokes: number[][];
}

/** Less ink than this (pad pixels) is no signature: a tap, a dot, a slip of the finger. */
export const MIN_INK = 40;

/** The ink of a signature: the length of its strokes, in pad pixels. */
export function inkLength(signature: DrawnSignature): number {
  let length = 0;
  for (const stroke of signature.strokes)
    for (let i = 2; i + 1 < stroke.length; i += 2)
      length += Math.hypot(stroke[i] - stroke[i - 2], stroke[i + 1] - stroke[i - 1]);
  return length;
}
