import countries from "i18n-iso-countries";
import { z } from "zod";
import "./messages";

/** ISO 3166-1 alpha-3 codes, from a maintained list rather than a pattern. */
const ALPHA3 = new Set(Object.keys(countries.getAlpha3Codes()));

export const isAlpha3Country = (code: string) => ALPHA3.has(code);

const EMAIL_LIKE = /[^\s@]+@[^\s@]+\.[^\s@]+/;

/**
 * A persistent internal ID of the end customer (spec 2.1). It must carry no personal data, so
 * values that look like an e-mail address, or like names separated by spaces, are refused.
 */
export const endUserReference = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((value) => !EMAIL_LIKE.test(value), {
    error:
      "The :attribute must be an internal ID, not an e-mail address: personal data belongs in sender_data.",
  })
  .refine((value) => !/\s/.test(value), {
    error:
      "The :attribute must be an internal ID without spaces, not a name: personal data belongs in sender_data.",
  })
  .meta({
    description: "Persistent internal ID of the end customer; no personal data.",
    example: "cust-10452",
  });

const name = z.string().trim().min(1).max(100);

function isRealPastDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isReal =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isReal && year >= 1900 && date.getTime() <= Date.now();
}

export const dateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "The :attribute must be a date in the form YYYY-MM-DD." })
  .refine(isRealPastDate, {
    error: "The :attribute must be a real date, not in the future and not before 1900.",
  })
  .meta({ format: "date", example: "1990-04-17" });

export const countryCode = z
  .string()
  .refine(isAlpha3Country, {
    error: "The :attribute must be an ISO 3166-1 alpha-3 country code in capitals, such as DEU or USA.",
  })
  .meta({ example: "DEU", description: "ISO 3166-1 alpha-3 code" });

const optionalEmail = z.email().max(254).optional();

/** A field that must be absent for this party type ("prohibited"). */
const prohibited = (when: string) =>
  z
    .never({ error: `The :attribute field is prohibited when ${when}.` })
    .optional()
    .meta({ description: `Must be omitted when ${when}.` });

function naturalData(side: "sender" | "receiver") {
  return z
    .object({
      first_name: name,
      last_name: name,
      date_of_birth: dateOfBirth,
      email: optionalEmail,
      legal_name: prohibited(`${side} type is natural`),
      country_of_registration: prohibited(`${side} type is natural`),
    })
    .meta({ title: `${side === "sender" ? "Sender" : "Receiver"}Natural` });
}

function legalData(side: "sender" | "receiver") {
  return z
    .object({
      legal_name: z.string().trim().min(1).max(200),
      country_of_registration: countryCode,
      email: optionalEmail,
      first_name: prohibited(`${side} type is legal`),
      last_name: prohibited(`${side} type is legal`),
      date_of_birth: prohibited(`${side} type is legal`),
    })
    .meta({ title: `${side === "sender" ? "Sender" : "Receiver"}Legal` });
}

export const senderNatural = naturalData("sender");
export const senderLegal = legalData("sender");
export type SenderData = z.infer<typeof senderNatural> | z.infer<typeof senderLegal>;

/** `sender_type` decides the shape of `sender_data` (spec 2.1). */
export const sender = z.discriminatedUnion("sender_type", [
  z.object({ sender_type: z.literal("natural"), sender_data: senderNatural }),
  z.object({ sender_type: z.literal("legal"), sender_data: senderLegal }),
]);
export type Sender = z.infer<typeof sender>;

/** `receiver_type` decides `receiver_data`; for `self` it must be omitted (spec 2.1, rule 3). */
export const receiver = z.discriminatedUnion("receiver_type", [
  z.object({ receiver_type: z.literal("natural"), receiver_data: naturalData("receiver") }),
  z.object({ receiver_type: z.literal("legal"), receiver_data: legalData("receiver") }),
  z.object({ receiver_type: z.literal("self"), receiver_data: prohibited("receiver type is self") }),
]);
export type Receiver = z.infer<typeof receiver>;

/** An empty request body, or `{}`: endpoints that take no parameters. */
export const emptyBody = z.object({}).meta({ description: "No parameters; send {} or an empty body." });
