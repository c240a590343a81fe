/**
 * The field a signer draws in (signature_pad: mouse, finger, pen): a white canvas with a line,
 * as wide as the column, and "clear". Reports the drawing as strokes in CSS pixels (pad size
 * included) after each stroke, or null when empty. A resized pad (a phone turned) keeps the
 * drawing by redrawing its points scaled to the new width.
 */
import { Box, Button, FormHelperText, Typography } from '@mui/material';
import SignaturePad from 'signature_pad';
import { useEffect, useRef } from 'react';
import { useTranslate } from 'react-admin';
import type { DrawnSignature } from './model.ts';

const HEIGHT = 180;

export function SignaturePadField({
  onChange,
  error,
}: {
  onChange: (signature: DrawnSignature | null) => void;
  error?: string;
}) {
  const translate = useTranslate();
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  });

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const signaturePad = new SignaturePad(element, {
      penColor: '#0d2673',
      minWidth: 0.8,
      maxWidth: 2.6,
      backgroundColor: 'rgba(0,0,0,0)',
    });
    pad.current = signaturePad;
    let cssWidth = 0;
    const emit = () => {
      if (signaturePad.isEmpty()) {
        report.current(null);
        return;
      }
      report.current({
        width: cssWidth,
        height: HEIGHT,
        strokes: signaturePad
          .toData()
          .map((group) => group.points.flatMap((point) => [round(point.x), round(point.y)])),
      });
    };
    const resize = () => {
      const width = element.getBoundingClientRect().width;
      if (width <= 0 || Math.abs(width - cssWidth) < 1) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const data = signaturePad.toData();
      const factor = cssWidth > 0 ? width / cssWidth : 1;
      element.width = width * ratio;
      element.height = HEIGHT * ratio;
      element.getContext('2d')?.scale(ratio, ratio);
      cssWidth = width;
      signaturePad.clear();
      if (data.length > 0)
        signaturePad.fromData(
          data.map((group) => ({
            ...group,
            points: group.points.map((point) => ({ ...point, x: point.x * factor })),
          })),
        );
      emit();
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    signaturePad.addEventListener('endStroke', emit);
    return () => {
      observer.disconnect();
      signaturePad.removeEventListener('endStroke', emit);
      signaturePad.off();
      pad.current = null;
    };
  }, []);

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }} id="signature-pad-label">
        {translate('app.signatures.page.pad')}
      </Typography>
      <Box
        sx={{
          position: 'relative',
          border: 2,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          bgcolor: 'common.white',
          height: HEIGHT,
        }}
      >
        {/* The line to sign on, under the drawing. */}
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            left: 24,
            right: 24,
            bottom: 40,
            borderBottom: 1,
            borderColor: 'grey.400',
            pointerEvents: 'none',
          }}
        />
        <canvas
          ref={canvas}
          data-testid="signature-pad"
          aria-labelledby="signature-pad-label"
          style={{
            display: 'block',
            width: '100%',
            height: HEIGHT,
            touchAction: 'none',
            cursor: 'crosshair',
            position: 'relative',
          }}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 0.5 }}>
        <FormHelperText error={Boolean(error)} data-testid="signature-error">
          {error ?? ' '}
        </FormHelperText>
        <Button
          size="small"
          onClick={() => {
            pad.current?.clear();
            report.current(null);
          }}
          data-testid="signature-clear"
        >
          {translate('app.signatures.page.clear')}
        </Button>
      </Box>
    </Box>
  );
}

const round = (value: number) => Math.round(value * 10) / 10;
