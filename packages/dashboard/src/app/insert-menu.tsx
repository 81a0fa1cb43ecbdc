/** @jsxImportSource preact */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** One entry of the quick insert menu: a block of an installed integration. */
export interface InsertItem {
  installationId: string;
  integrationTitle: string;
  blockId: string;
  title: string;
  description: string;
  /** The block's `urlUnfurl` patterns: pasting a matching URL in the editor creates it. */
  urlUnfurl?: string[];
  /** The block's `markdown` (`{ codeblock, body }`): it converts to and from that code block. */
  markdown?: { codeblock: string; body: string };
}

/**
 * Entries whose title, description or integration contains every word of the query.
 * @example filterItems(items, 'coun'); // the Counter block
 */
export function filterItems(items: InsertItem[], query: string): InsertItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const text = `${item.title} ${item.description} ${item.integrationTitle} ${item.blockId}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** Props of {@link InsertMenu}. */
export interface InsertMenuProps {
  items: InsertItem[];
  onChoose(item: InsertItem): void;
  onClose(): void;
}

/**
 * The quick insert menu (Command + /): a filter box and the matching blocks; ↑/↓ move,
 * Enter inserts, Escape closes. Built on the ARIA combobox + listbox pattern.
 */
export function InsertMenu({ items, onChoose, onClose }: InsertMenuProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const shown = filterItems(items, query);
  // Focus in the same task as the render that opened the menu: with a later (passive) effect, keys
  // typed right after the shortcut went to whatever had focus before, and were lost to the filter.
  useLayoutEffect(() => input.current?.focus(), []);
  useEffect(() => setActive(0), [query]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => (shown.length ? (i + 1) % shown.length : 0));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (shown.length ? (i - 1 + shown.length) % shown.length : 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = shown[active];
      if (item) onChoose(item);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };
  const optionId = (i: number) => `insert-option-${i}`;
  return (
    <div class="menu-backdrop">
      <div
        class="insert-menu"
        role="dialog"
        aria-modal="true"
        aria-label="Insert a block"
        onFocusOut={(e) => {
          const next = e.relatedTarget as Node | null;
          if (!next || !e.currentTarget.contains(next)) onClose();
        }}
      >
        <input
          ref={input}
          type="text"
          class="menu-filter"
          role="combobox"
          aria-expanded="true"
          aria-controls="insert-options"
          aria-autocomplete="list"
          aria-activedescendant={shown.length ? optionId(active) : undefined}
          aria-label="Filter blocks"
          placeholder="Search blocks…"
          value={query}
          onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
          onKeyDown={onKeyDown}
        />
        {shown.length ? (
          <div id="insert-options" role="listbox" class="menu-options" aria-label="Blocks">
            {shown.map((item, i) => (
              <div
                key={`${item.installationId}/${item.blockId}`}
                tabIndex={-1}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'menu-option active' : 'menu-option'}
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => {
                  e.preventDefault();
                  onChoose(item);
                }}
              >
                <span class="menu-title">{item.title}</span>
                <span class="menu-desc">{item.description}</span>
                <span class="menu-source">{item.integrationTitle}</span>
              </div>
            ))}
          </div>
        ) : (
          <p class="menu-empty" role="status">
            {items.length === 0
              ? 'No block available: install an integration that provides blocks into this space (and make it active).'
              : `No block matches “${query}”.`}
          </p>
        )}
        <p class="menu-hint" aria-hidden="true">
          ↑ ↓ to move · Enter to insert · Esc to close
        </p>
      </div>
    </div>
  );
}
