/** One icon ready to draw: the SVG body and its viewBox (the server's `RenderedIcon`). */
export interface IconData {
  body: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Icon data by `collection:name`, as the server resolves it at start and ships in the page. */
export type IconDataMap = Record<string, IconData>;
