/**
 * The rich-text editor of content (TipTap, on ProseMirror): headings, bold, italic, underline, strike, lists,
 * quotes, links and images from the media library, with undo and an HTML source view. It is its own chunk, loaded
 * with the first form that shows it; it runs under the back office's Content-Security-Policy (no inline script,
 * no eval; its styles are in content.css rather than injected).
 */
import { useEffect, useId, useState, type MouseEvent } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { useTranslation } from 'react-i18next';
import { fromEditorHtml, mediaSrc, survives, toEditorHtml } from './html';
import { MediaPickerDialog } from './MediaPicker';

export interface RichTextEditorProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  /** the field's error message, if any */
  error?: string;
}

export default function RichTextEditor(props: RichTextEditorProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const [source, setSource] = useState(false);
  const [lossy, setLossy] = useState(false);
  const [picking, setPicking] = useState(false);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), Image.configure({ allowBase64: false })],
    content: toEditorHtml(props.value),
    injectCSS: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        class: 'rte-content',
      },
    },
    onUpdate: ({ editor: e }) => props.onChange(fromEditorHtml(e.getHTML())),
  });
  // content the visual editor would change opens as HTML, so that merely opening and saving it loses nothing
  useEffect(() => {
    if (!editor) return;
    const kept = survives(toEditorHtml(props.value), editor.getHTML());
    setLossy(!kept);
    if (!kept && props.value.trim() !== '') setSource(true);
    // judged once, on the content the editor was opened with
  }, [editor]);
  // a value replaced from outside (the item read again after a save) is shown
  useEffect(() => {
    if (!editor || editor.isFocused) return;
    if (fromEditorHtml(editor.getHTML()) !== props.value) editor.commands.setContent(toEditorHtml(props.value), { emitUpdate: false });
  }, [editor, props.value]);

  return (
    <div className="rte field">
      <span id={labelId} className="rte-label">
        {props.label}
      </span>
      {editor && (
        <Toolbar
          editor={editor}
          source={source}
          onSource={() => {
            if (source) editor.commands.setContent(toEditorHtml(props.value), { emitUpdate: false });
            setSource(!source);
          }}
          onImage={() => setPicking(true)}
        />
      )}
      {lossy && source && (
        <p className="hint" role="note">
          {t('content.editor.lossy')}
        </p>
      )}
      {source ? (
        <textarea
          className="rte-source"
          aria-labelledby={labelId}
          value={props.value}
          rows={16}
          spellCheck={false}
          onChange={(e) => props.onChange(e.target.value)}
        />
      ) : (
        <EditorContent editor={editor} />
      )}
      {props.error && <small className="field-error">{props.error}</small>}
      {picking && (
        <MediaPickerDialog
          onClose={() => setPicking(false)}
          onPick={(item, alt) => {
            setPicking(false);
            editor
              ?.chain()
              .focus()
              .setImage({ src: mediaSrc(item.path), alt })
              .run();
          }}
        />
      )}
    </div>
  );
}

function Toolbar(props: { editor: Editor; source: boolean; onSource: () => void; onImage: () => void }) {
  const { t } = useTranslation();
  const { editor } = props;
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const off = props.source;
  // a pointer press on a command keeps the focus (and the selection) in the text, so typing goes on at once;
  // from the keyboard the command's chain gives the focus back to the text
  const keepFocus = (e: MouseEvent) => e.preventDefault();
  const toggle = (label: string, pressed: boolean, run: () => void) => (
    <button type="button" aria-pressed={pressed} disabled={off} onMouseDown={keepFocus} onClick={run} title={label}>
      {label}
    </button>
  );
  const chain = () => editor.chain().focus();
  return (
    <div className="rte-toolbar" role="toolbar" aria-label={t('content.editor.toolbar')}>
      {toggle(t('content.editor.bold'), state.bold, () => chain().toggleBold().run())}
      {toggle(t('content.editor.italic'), state.italic, () => chain().toggleItalic().run())}
      {toggle(t('content.editor.underline'), state.underline, () => chain().toggleUnderline().run())}
      {toggle(t('content.editor.strike'), state.strike, () => chain().toggleStrike().run())}
      {toggle(t('content.editor.heading2'), state.h2, () => chain().toggleHeading({ level: 2 }).run())}
      {toggle(t('content.editor.heading3'), state.h3, () => chain().toggleHeading({ level: 3 }).run())}
      {toggle(t('content.editor.bulletList'), state.bullet, () => chain().toggleBulletList().run())}
      {toggle(t('content.editor.orderedList'), state.ordered, () => chain().toggleOrderedList().run())}
      {toggle(t('content.editor.quote'), state.quote, () => chain().toggleBlockquote().run())}
      {toggle(t('content.editor.link'), state.link, () => {
        if (state.link) {
          chain().unsetLink().run();
          return;
        }
        const href = window.prompt(t('content.editor.linkPrompt'))?.trim();
        if (href) chain().extendMarkRange('link').setLink({ href }).run();
      })}
      <button type="button" disabled={off} onClick={props.onImage}>
        {t('content.editor.image')}
      </button>
      <button type="button" disabled={off || !state.undo} onMouseDown={keepFocus} onClick={() => chain().undo().run()}>
        {t('content.editor.undo')}
      </button>
      <button type="button" disabled={off || !state.redo} onMouseDown={keepFocus} onClick={() => chain().redo().run()}>
        {t('content.editor.redo')}
      </button>
      <button type="button" aria-pressed={props.source} onClick={props.onSource}>
        {t('content.editor.source')}
      </button>
    </div>
  );
}
