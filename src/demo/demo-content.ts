/** The demo organization a fresh install starts with. */
export const DEMO = {
  organizationName: 'Harbor Dental Clinic',
  slug: 'harbor-dental',
  websiteUrl: 'https://harbor-dental.example.com/',
  chatbotName: 'Harbor Dental assistant',
  allowedDomain: 'harbor-dental.example.com',
} as const;
