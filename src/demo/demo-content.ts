/** The demo organization a fresh install starts with (a fictional dental clinic). */
export const DEMO = {
  organizationName: 'Harbor Dental Clinic',
  slug: 'harbor-dental',
  websiteUrl: 'https://harbor-dental.example.com/',
  chatbotName: 'Harbor Dental assistant',
  allowedDomain: 'harbor-dental.example.com',
} as const;

export interface DemoDocument {
  key: string;
  title: string;
  type: string;
  sourceUri: string;
  content: string;
}

/** Approved, customer-safe knowledge the demo assistant can answer from. */
export const DEMO_DOCUMENTS: readonly DemoDocument[] = [
  {
    key: 'demo:opening-hours',
    title: 'Opening hours',
    type: 'policy',
    sourceUri: 'https://harbor-dental.example.com/hours',
    content: `# Opening hours

The clinic is open Monday to Friday from 8:00 to 18:00 and on Saturday from 9:00 to 13:00. It is closed on Sundays and public holidays.

## Emergencies

For dental emergencies outside opening hours (severe pain, swelling, a knocked-out tooth) call the on-call line at +1 555 0100. The on-call dentist answers every day from 7:00 to 22:00.`,
  },
  {
    key: 'demo:prices',
    title: 'Treatments and prices',
    type: 'faq',
    sourceUri: 'https://harbor-dental.example.com/prices',
    content: `# Treatments and prices

## Check-up and cleaning

A check-up with a professional cleaning takes 45 minutes and costs $95. Children under 12 are checked for free when they come with a parent who has an appointment.

## Whitening

In-office whitening costs $320 per session. Most patients need one session; results last one to three years.

## Fillings

A composite (tooth-coloured) filling costs from $120 to $210 depending on its size.`,
  },
  {
    key: 'demo:insurance',
    title: 'Insurance and payment',
    type: 'policy',
    sourceUri: 'https://harbor-dental.example.com/insurance',
    content: `# Insurance and payment

We bill Delta Dental, Cigna and MetLife directly. With other insurers you pay at the visit and we give you an itemised receipt to claim the costs back.

Payment is possible by card or bank transfer. Treatments above $500 can be paid in up to three monthly instalments without interest.`,
  },
  {
    key: 'demo:appointments',
    title: 'Booking and cancelling appointments',
    type: 'policy',
    sourceUri: 'https://harbor-dental.example.com/appointments',
    content: `# Booking and cancelling appointments

Appointments can be booked online, by phone at +1 555 0199, or at the front desk.

Please cancel at least 24 hours in advance. A missed appointment without notice is charged $40.`,
  },
];
