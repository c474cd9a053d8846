import { Component, type ReactNode } from 'react';

interface Props {
  /** The markup the server sent, taken before hydration. */
  serverHtml: string;
  children: ReactNode;
}

/**
 * Outermost boundary for crawlers: an error the browser meets after hydration puts the
 * server's HTML back instead of an error page (the error boundaries log it and rethrow).
 */
export class BotBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) {
      return <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: this.props.serverHtml }} />;
    }
    return this.props.children;
  }
}
