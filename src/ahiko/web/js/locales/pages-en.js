// English strings of the pages outside the table, merged over locales/en.js by i18n.js.

export const EN_PAGES = {
};
