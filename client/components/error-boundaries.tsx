import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useMatchedLocale } from '../hooks.ts';
import { TranslationProvider } from '../i18n.ts';
import { isNotFound, toPageErrorInfo } from '../router/page-error.ts';
import { useRuntime } from '../runtime.tsx';
import { DocumentHead } from './document-head.tsx';
import { clearErrors, ErrorScreen, InlineError } from './error-screen.tsx';
import { LayoutFrame } from './layout.tsx';

export const renderErrorLog = 'Произошла ошибка';

/**
 * Shared by both boundaries. A bot must never get an error page that the browser made up
 * after the server's HTML: the error is logged and rethrown to the outermost boundary,
 * which puts the server's HTML back (client/entry-client.tsx).
 */
function useBoundaryError() {
  const error = useRouteError();
  const runtime = useRuntime();
  const info = toPageErrorInfo(error, { exposeDetails: runtime.dev });
  const isRenderFailure = !isRouteErrorResponse(error);
  if (typeof window !== 'undefined' && runtime.isBot && !runtime.isServerError(error)) {
    console.error(`Not rendering error page for bot with user agent \`${navigator.userAgent}\`:`, error);
    throw error;
  }
  useEffect(() => {
    if (isRenderFailure && !runtime.isServerError(error)) console.error(renderErrorLog, error);
  }, [error, isRenderFailure, runtime]);
  return { error, info, isBot: runtime.isBot };
}

/** Errors of a page: fatal ones take the whole screen, others (and every not-found) render inside the layout. */
export function LocaleErrorBoundary() {
  const { error, info, isBot } = useBoundaryError();
  if (info.fatal && !isNotFound(info) && !isBot)
    return (
      <>
        <DocumentHead error={error} />
        <ErrorScreen info={info} onClear={clearErrors} inRouter />
      </>
    );
  return (
    <LayoutFrame>
      <DocumentHead error={error} />
      <InlineError info={info} />
    </LayoutFrame>
  );
}

/** Errors above the layout (the root loader): always the error screen. */
export function RootErrorBoundary() {
  const { error, info } = useBoundaryError();
  const locale = useMatchedLocale();
  return (
    <TranslationProvider locale={locale}>
      <DocumentHead error={error} />
      <ErrorScreen info={info} onClear={clearErrors} inRouter />
    </TranslationProvider>
  );
}
