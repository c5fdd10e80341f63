// Portuguese strings of the pages outside the table (lobby, create room, wallet, my hands,
// sign-in), merged over locales/pt-BR.js by i18n.js. New page strings go here.

export const PT_PAGES = {
};
