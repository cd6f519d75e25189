/**
 * The lines of an order with a quantity to take for an action (invoice, ship, refund): what is left of each, the
 * quantity typed (checked at the field: not below 0, not above what is left, whole units unless the line takes
 * decimals), and the API's refusal of a line shown at its field.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatNumber } from '../../i18n';
import { qtyOf, type OrderLine } from './rules';

export type Quantities = Record<number, string>;

/** The quantity fields' start: what is left of each line. */
export function startQuantities(lines: OrderLine[], left: (l: OrderLine) => number): Quantities {
  return Object.fromEntries(lines.map((l) => [l.id, String(left(l))]));
}

/** A typed quantity that cannot be sent, as a message key; undefined when it is fine. */
export function qtyProblem(line: OrderLine, typed: string | undefined, left: number): string | undefined {
  const q = qtyOf(typed);
  if (!Number.isFinite(q) || q < 0) return 'orders.qtyInvalid';
  if (q > left) return 'orders.qtyTooMuch';
  if (!line.isQtyDecimal && !Number.isInteger(q)) return 'orders.qtyWhole';
  return undefined;
}

/**
 * The lines to send: those with a quantity above 0, in the order shown. Undefined when a quantity cannot be sent
 * (its field says why).
 */
export function chosenLines(lines: OrderLine[], qty: Quantities, left: (l: OrderLine) => number) {
  if (lines.some((l) => qtyProblem(l, qty[l.id], left(l)))) return undefined;
  return lines.map((l) => ({ orderItemId: l.id, qty: qtyOf(qty[l.id]) })).filter((l) => l.qty > 0);
}

/** The API's refusal of one line: named by its field (`items.N.qty`, N the index sent) or by its order item id. */
export function lineError(error: unknown, sent: number[], lineId: number): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const m = /^items\.(\d+)\./.exec(error.field ?? '');
  if (m && sent[Number(m[1])] === lineId) return error.message;
  return error.details.orderItemId === lineId ? error.message : undefined;
}

export function QtyTable(props: {
  caption: string;
  /** the label of each quantity field, e.g. "Quantity to invoice of {{name}}" */
  fieldLabel: string;
  lines: OrderLine[];
  left: (l: OrderLine) => number;
  qty: Quantities;
  onChange: (q: Quantities) => void;
  error?: unknown;
  sent: number[];
  extraHeader?: string;
  extra?: (l: OrderLine) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid-scroll">
      <table className="qty-table">
        <caption className="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('sales.product')}</th>
            <th scope="col" className="num">
              {t('orders.left')}
            </th>
            <th scope="col">{t('sales.qty')}</th>
            {props.extra && <th scope="col">{props.extraHeader}</th>}
          </tr>
        </thead>
        <tbody>
          {props.lines.map((l) => {
            const left = props.left(l);
            const problem = qtyProblem(l, props.qty[l.id], left);
            const apiError = lineError(props.error, props.sent, l.id);
            const message = problem ? t(problem, { left: formatNumber(left) }) : apiError;
            const errorId = `qty-error-${l.id}`;
            return (
              <tr key={l.id}>
                <td>
                  {l.name}
                  <br />
                  <small>{l.sku}</small>
                </td>
                <td className="num">{formatNumber(left)}</td>
                <td>
                  <input
                    type="number"
                    inputMode={l.isQtyDecimal ? 'decimal' : 'numeric'}
                    className="qty-input"
                    min={0}
                    max={left}
                    step={l.isQtyDecimal ? 'any' : 1}
                    value={props.qty[l.id] ?? ''}
                    aria-label={t(props.fieldLabel, { name: l.name })}
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? errorId : undefined}
                    onChange={(e) => props.onChange({ ...props.qty, [l.id]: e.target.value })}
                  />
                  {message && (
                    <small id={errorId} className="field-error">
                      {message}
                    </small>
                  )}
                </td>
                {props.extra && <td>{props.extra(l)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
