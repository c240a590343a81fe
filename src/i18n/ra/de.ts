export { default } from 'ra-language-english'; // placeholder until the translation lands
