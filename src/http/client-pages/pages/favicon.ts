/**
 * The pages' icon, served at /clients/assets/favicon.svg and linked from every page, so browsers do not ask for
 * /favicon.ico (a 404 outside these pages). A cairn: three stacked stones.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<ellipse cx="16" cy="26" rx="12" ry="4.5" fill="#5a6272"/>
<ellipse cx="16" cy="17.5" rx="8.5" ry="4" fill="#1f5fbf"/>
<ellipse cx="16" cy="10" rx="5.5" ry="3.5" fill="#f2b600"/>
</svg>
`;
