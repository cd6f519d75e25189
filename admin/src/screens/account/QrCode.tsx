/** A QR code drawn as SVG elements (no inline style, no data URL: nothing the Content-Security-Policy refuses). */
import { useMemo } from 'react';
import { encode } from 'uqr';

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { d, n } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 2 });
    let path = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) path += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { d: path, n: qr.size };
  }, [text]);
  return (
    <svg className="qr" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${n} ${n}`} shapeRendering="crispEdges">
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
