/**
 * A line chart of one series per period (uPlot, drawn on a canvas), with the same figures in a table for screen
 * readers and keyboard users: the canvas itself is hidden from assistive technology.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartProps {
  label: string;
  periods: string[];
  values: number[];
  format: (v: number) => string;
}

export function LineChart({ label, periods, values, format }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = periods.map((p) => Date.parse(`${p}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 240,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [{}, { values: (_u, ticks) => ticks.map((v) => format(v)), size: 80 }],
        series: [{}, { label, stroke: '#1d4ed8', fill: 'rgba(29, 78, 216, 0.08)', width: 2 }],
      },
      [xs, values],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, el.clientWidth), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [label, periods, values, format]);
  return (
    <figure className="chart">
      <div ref={box} aria-hidden="true" />
      <figcaption className="sr-only">{label}</figcaption>
      <table className="sr-only">
        <caption>{label}</caption>
        <tbody>
          {periods.map((p, i) => (
            <tr key={p}>
              <th scope="row">{p}</th>
              <td>{format(values[i])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
