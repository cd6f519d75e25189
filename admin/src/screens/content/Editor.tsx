/** The rich-text editor as a form field: its chunk (TipTap) is loaded when a form first shows it. */
import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui';
import type { RichTextEditorProps } from './RichTextEditor';

const RichTextEditor = lazy(() => import('./RichTextEditor'));

export function Editor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Spinner />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}
