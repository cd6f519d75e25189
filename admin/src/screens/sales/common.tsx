/**
 * Pieces the sales screens share (orders, invoices, shipments, credit memos): the API's UTC times shown in the
 * user's language, document states as badges, lines and totals of a document, comments, addresses, PDF downloads
 * and the dialog every sales action is asked in.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { download } from '../../api/client';
import { ErrorNote } from '../../components/ui';
import { formatDate, formatMoney, formatNumber } from '../../i18n';
import './sales.css';

/** The API's `YYYY-MM-DD HH:MM:SS` (UTC) as an instant a Date reads right. */
export function utc(wire: string | undefined): string | undefined {
  if (!wire) return undefined;
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(wire) ? `${wire.replace(' ', 'T')}Z` : wire;
}

/** A wire date and time in the user's language. */
export const when = (wire: string | undefined) => formatDate(utc(wire));

/** A state or status as a badge; `tone` colours the finished and the stopped ones. */
export function StateBadge({ label, tone }: { label: string; tone?: 'ok' | 'warn' | 'stop' }) {
  return <span className={`badge sales-badge${tone ? ` sales-badge-${tone}` : ''}`}>{label}</span>;
}

export interface DocLine {
  id: number;
  sku: string;
  name: string;
  qty: number;
  price: number;
  rowTotal: number;
  taxAmount?: number;
  discountAmount?: number;
}

/** The lines of an invoice, shipment or credit memo. */
export function DocLines(props: { label: string; lines: DocLine[]; currency: string; extra?: (line: DocLine) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="grid-scroll">
      <table className="sales-lines">
        <caption className="sr-only">{props.label}</caption>
        <thead>
          <tr>
            <th scope="col">{t('sales.product')}</th>
            <th scope="col">{t('sales.sku')}</th>
            <th scope="col" className="num">
              {t('sales.price')}
            </th>
            <th scope="col" className="num">
              {t('sales.qty')}
            </th>
            <th scope="col" className="num">
              {t('sales.tax')}
            </th>
            <th scope="col" className="num">
              {t('sales.discount')}
            </th>
            <th scope="col" className="num">
              {t('sales.rowTotal')}
            </th>
            {props.extra && <th scope="col">{t('sales.more')}</th>}
          </tr>
        </thead>
        <tbody>
          {props.lines.map((l) => (
            <tr key={l.id}>
              <td>{l.name}</td>
              <td>{l.sku}</td>
              <td className="num">{formatMoney(l.price, props.currency)}</td>
              <td className="num">{formatNumber(l.qty)}</td>
              <td className="num">{formatMoney(l.taxAmount ?? 0, props.currency)}</td>
              <td className="num">{formatMoney(l.discountAmount ?? 0, props.currency)}</td>
              <td className="num">{formatMoney(l.rowTotal, props.currency)}</td>
              {props.extra && <td>{props.extra(l)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Amounts as a list of label and value; the last one (the grand total) stands out. */
export function Totals(props: { label: string; rows: [string, number | undefined][]; currency: string; strong?: string[] }) {
  return (
    <dl className="sales-totals" aria-label={props.label}>
      {props.rows
        .filter(([, v]) => v !== undefined)
        .map(([label, v]) => (
          <div key={label} className={props.strong?.includes(label) ? 'strong' : undefined}>
            <dt>{label}</dt>
            <dd>{formatMoney(v, props.currency)}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Label and value pairs of a document's facts. */
export function Facts(props: { rows: [string, ReactNode][] }) {
  return (
    <dl className="sales-facts">
      {props.rows
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([label, v]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

export interface CommentEntry {
  id?: number;
  comment?: string;
  note?: string;
  status?: string;
  createdAt: string;
  isCustomerNotified: boolean;
  isVisibleOnFront: boolean;
}

/** Comments (or status history), as they come. */
export function Comments(props: { label: string; entries: CommentEntry[]; status?: (s: string) => string }) {
  const { t } = useTranslation();
  if (!props.entries.length) return <p className="muted">{t('sales.noComments')}</p>;
  return (
    <ol className="sales-comments" aria-label={props.label}>
      {props.entries.map((c, i) => (
        <li key={c.id ?? i}>
          <div className="sales-comment-meta">
            <time dateTime={utc(c.createdAt)}>{when(c.createdAt)}</time>
            {c.status && props.status && <StateBadge label={props.status(c.status)} />}
            <span>{c.isCustomerNotified ? t('sales.customerNotified') : t('sales.customerNotNotified')}</span>
            {c.isVisibleOnFront && <span>{t('sales.visibleOnFront')}</span>}
          </div>
          {(c.comment ?? c.note) && <p>{c.comment ?? c.note}</p>}
        </li>
      ))}
    </ol>
  );
}

export interface AddressLike {
  firstName?: string;
  lastName?: string;
  company?: string;
  street?: string[];
  city?: string;
  region?: string;
  postcode?: string;
  countryId?: string;
  telephone?: string;
  email?: string;
}

/** A postal address, one line each. */
export function AddressBlock({ address }: { address?: AddressLike }) {
  const { t } = useTranslation();
  if (!address) return <p className="muted">{t('sales.noAddress')}</p>;
  const lines = [
    [address.firstName, address.lastName].filter(Boolean).join(' '),
    address.company,
    ...(address.street ?? []),
    [address.postcode, address.city].filter(Boolean).join(' '),
    [address.region, address.countryId].filter(Boolean).join(', '),
    address.telephone,
  ].filter((l): l is string => !!l);
  return (
    <address className="sales-address">
      {lines.map((l, i) => (
        <span key={i}>{l}</span>
      ))}
    </address>
  );
}

/** Downloads what `path` (under the API prefix, or the full /api/rest/v2 path) answers as a file named `filename`. */
export async function saveDownload(path: string, filename: string): Promise<void> {
  const blob = await download(path.replace(/^\/api\/rest\/v2/, ''));
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A button that downloads an invoice's PDF, saying so while it runs and showing a failure. */
export function InvoicePdfButton(props: { orderId: number; invoiceId: number; incrementId: string; label?: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <span className="sales-pdf">
      <button
        type="button"
        disabled={busy}
        aria-label={props.label ? undefined : t('sales.downloadPdfOf', { number: props.incrementId })}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await saveDownload(`/orders/${props.orderId}/invoices/${props.invoiceId}/pdf`, `invoice_${props.incrementId}.pdf`);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        {props.label ?? t('sales.pdf')}
      </button>
      <ErrorNote error={error} />
    </span>
  );
}

/**
 * The dialog an action is asked in: a title, the form's fields, the API's refusal shown in it, and the submit
 * button (disabled while the request runs). Closing it (Escape, Cancel) drops what was typed.
 */
export function ActionDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  submitLabel: string;
  danger?: boolean;
  wide?: boolean;
  busy: boolean;
  error?: unknown;
  onSubmit: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  }
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={`dialog${props.wide ? ' sales-dialog-wide' : ''}`}
          {...(props.description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title>{props.title}</Dialog.Title>
          {props.description && <Dialog.Description>{props.description}</Dialog.Description>}
          <form onSubmit={submit}>
            {props.children}
            <ErrorNote error={props.error} />
            <div className="form-actions">
              <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={props.busy}>
                {props.submitLabel}
              </button>
              <Dialog.Close asChild>
                <button type="button">{t('common.cancel')}</button>
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Runs an action: busy while it runs, its error kept for the dialog, `done` after success. */
export function useAction<A extends unknown[]>(run: (...args: A) => Promise<unknown>, done?: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  return {
    busy,
    error,
    reset: () => setError(undefined),
    async go(...args: A) {
      setBusy(true);
      setError(undefined);
      try {
        await run(...args);
        done?.();
      } catch (err) {
        setError(err);
      } finally {
        setBusy(false);
      }
    },
  };
}
