/**
 * The reply benchmark's memory: FAQ-style items of a clinic, one per service and aspect (SERVICES × ASPECTS),
 * two paragraphs each, deterministic, with one question per item in the words a patient would use.
 */
import type { DocumentInput } from '../src/commands/memory/ingest-document.command';

const SERVICES = [
  'dental cleaning',
  'eye examination',
  'physiotherapy session',
  'flu vaccination',
  'blood test',
  'skin check',
  'hearing test',
  'nutrition consultation',
  'sports massage',
  'travel vaccination',
  'allergy testing',
  'pregnancy scan',
  'child checkup',
  'knee rehabilitation',
  'back pain treatment',
  'sleep assessment',
  'orthodontic braces',
  'teeth whitening',
  'contact lens fitting',
  'cholesterol screening',
  'diabetes review',
  'wound dressing',
  'ear wax removal',
  'stress counselling',
  'speech therapy',
  'foot care appointment',
  'home visit',
  'video consultation',
  'prescription renewal',
  'medical certificate',
];

interface Aspect {
  name: string;
  question: (service: string) => string;
  paragraphs: (service: string, n: number) => [string, string];
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday'];
const BRANCHES = ['Riverside', 'Old Town', 'Harbour', 'North Park', 'Station Square'];
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length];

const ASPECTS: Aspect[] = [
  {
    name: 'Opening hours',
    question: (s) => `When can I come in for a ${s}?`,
    paragraphs: (s, n) => [
      `Appointments for a ${s} are available from ${pick(DAYS, n)} to Friday between ${7 + (n % 3)}:00 and ${17 + (n % 3)}:00 at the ${pick(BRANCHES, n)} clinic. On public holidays the clinic is closed and the phone line forwards to the out-of-hours service.`,
      `Late slots for a ${s} on Thursdays run until 20:00 and fill up quickly, so book them at least a week ahead. Saturday mornings are reserved for urgent cases and follow-up visits.`,
    ],
  },
  {
    name: 'Price',
    question: (s) => `How much does a ${s} cost?`,
    paragraphs: (s, n) => [
      `A ${s} costs ${40 + (n % 7) * 15} euros for self-paying patients, payable by card or bank transfer after the visit. The invoice lists the treatment code so that you can claim it from your insurer.`,
      `Students and patients over 65 receive a discount of ${10 + (n % 3) * 5} percent on the ${s}. Missed appointments without notice are charged at half the regular price.`,
    ],
  },
  {
    name: 'Booking',
    question: (s) => `How do I book a ${s}?`,
    paragraphs: (s, n) => [
      `You can book a ${s} online through the patient portal, by phone on weekdays, or at the reception desk of the ${pick(BRANCHES, n + 1)} clinic. Online bookings are confirmed by email within a few minutes.`,
      `For a first ${s} please allow ${20 + (n % 4) * 10} minutes and bring a photo ID. Returning patients can choose their preferred practitioner in the portal.`,
    ],
  },
  {
    name: 'Cancellation',
    question: (s) => `Can I cancel or move my ${s}?`,
    paragraphs: (s, n) => [
      `A ${s} can be cancelled or rescheduled free of charge up to ${12 + (n % 3) * 12} hours before the appointment, in the portal or by replying to the confirmation email.`,
      `Later cancellations of a ${s} are charged unless you are ill; in that case send a short note and the fee is waived. Repeated no-shows may require prepayment for future bookings.`,
    ],
  },
  {
    name: 'Insurance',
    question: (s) => `Does my insurance cover a ${s}?`,
    paragraphs: (s, n) => [
      `Most statutory insurers cover a ${s} when it is referred by a general practitioner; private insurers reimburse it according to your plan. Bring your insurance card to every visit.`,
      `Without a referral the ${s} is billed privately at the listed price. Supplementary plans usually reimburse ${50 + (n % 5) * 10} percent of the cost; check your policy before booking.`,
    ],
  },
  {
    name: 'Preparation',
    question: (s) => `How should I prepare for a ${s}?`,
    paragraphs: (s, n) => [
      `Before a ${s} please avoid eating for ${n % 2 === 0 ? 'two' : 'four'} hours, wear comfortable clothing, and bring a list of the medicines you take. Arrive ten minutes early to complete the intake form.`,
      `If you have had a ${s} elsewhere, bring the previous report or ask your former clinic to send it to us. Children under 16 must be accompanied by a parent or guardian.`,
    ],
  },
  {
    name: 'Duration',
    question: (s) => `How long does a ${s} take?`,
    paragraphs: (s, n) => [
      `A standard ${s} takes about ${15 + (n % 5) * 10} minutes, including a short conversation about your history and the results.`,
      `Follow-up ${s} appointments are shorter. Results that need a laboratory are available in the patient portal within ${1 + (n % 4)} working days.`,
    ],
  },
  {
    name: 'Location',
    question: (s) => `Where does the ${s} take place?`,
    paragraphs: (s, n) => [
      `The ${s} takes place at the ${pick(BRANCHES, n + 2)} clinic on the ${pick(['ground', 'first', 'second'], n)} floor; the lift is next to the main entrance and the building is step-free.`,
      `Bus lines ${10 + (n % 9)} and ${30 + (n % 7)} stop in front of the building. Bicycle racks are available in the courtyard behind the pharmacy.`,
    ],
  },
  {
    name: 'Parking',
    question: (s) => `Is there parking for a ${s} visit?`,
    paragraphs: (s, n) => [
      `Patients coming for a ${s} can park for free for up to ${1 + (n % 3)} hours in the garage under the clinic; validate the ticket at the reception desk.`,
      `Two accessible parking bays are reserved near the entrance. On market days the street parking around the clinic is closed until 14:00.`,
    ],
  },
  {
    name: 'Aftercare',
    question: (s) => `What should I do after a ${s}?`,
    paragraphs: (s, n) => [
      `After a ${s} most patients can return to normal activities the same day. Avoid strenuous exercise for ${1 + (n % 3)} days if the practitioner advises it.`,
      `If you notice pain, swelling or fever after the ${s}, call the clinic or use the portal to message your practitioner; outside opening hours call the out-of-hours service.`,
    ],
  },
];

/** Items in the corpus. */
export const ITEM_COUNT = SERVICES.length * ASPECTS.length;

/** Every item as an approved, customer-safe document, with the question it answers. */
export function replyCorpus(): Array<{ document: DocumentInput; question: string }> {
  const out: Array<{ document: DocumentInput; question: string }> = [];
  for (const service of SERVICES) {
    for (const aspect of ASPECTS) {
      const slug = service.replace(/ /g, '-');
      const key = aspect.name.toLowerCase();
      out.push({
        question: aspect.question(service),
        document: {
          document_key: `faq/${slug}/${key}`,
          title: `${aspect.name}: ${service}`,
          content: aspect.paragraphs(service, out.length + 1).join('\n\n'),
          format: 'text',
          type: 'faq',
          audience: 'customer_safe',
          authority_level: 'approved_source',
          source_label: 'Clinic website',
          source_uri: `https://clinic.example.com/faq/${slug}#${key}`,
          source_date: null,
          effective_at: null,
          expires_at: null,
          summary: null,
        },
      });
    }
  }
  return out;
}
