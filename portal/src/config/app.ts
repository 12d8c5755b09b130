/** Product names shown by the portal. */
export const APP_TITLE = 'Tower Models Catalog';
/** Short name in the landing page's top bar. */
export const APP_SHORT_NAME = 'InspectAI';
/** Landing page title. */
export const PRODUCT_TITLE = 'Infrastructure Inspection Platform';
export const PRODUCT_SUBTITLE = 'AI-Powered Vision & 3D Analysis Platform for Infrastructure Inspection and Monitoring';
export const SIGN_IN_SUBTITLE = '3D model inspection platform';
export const TAGLINE = 'A platform for the future of infrastructure inspection.';
