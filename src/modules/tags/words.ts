/**
 * Tag names out of what a customer typed, by Magento's rules (Mage_Tag_Helper_Data extractTags/cleanTags): words
 * are separated by white space, 'words in single quotes' make one tag, the quotes and surrounding space are
 * trimmed and empty names dropped. Names longer than 255 characters are cut there, as Magento saves them; a name
 * given twice (in any case) counts once, as the second use finds the first tag.
 */
export const MAX_NAME = 255;

export function tagNames(text: string): string[] {
  const split = text.replace(/('(.*?)')|(\s+)/g, (_m, quoted: string | undefined) => `${quoted ?? ''}\n`).split('\n');
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of split) {
    const name = [...raw.replace(/^'+|'+$/g, '').trim()].slice(0, MAX_NAME).join('').trim();
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}
