import type { ErrorDetailKey } from '../../contract/page-error.ts';

/** Refusals a browser sees framed (index.ts): an address, as the error screen's translated detail line. */
export const addressRefusals: Record<string, ErrorDetailKey> = {
  MALFORMED_PATH: 'malformedPath',
  PATH_TOO_LONG: 'pathTooLong',
};
/** A form refused before its action, as the message code its form shows (locales' form.messages). */
export const formRefusals: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};
