// spec: Customer, email — "team-alias style addresses built from the team's own address are refused".
// Our decision (docs/spec-gaps.md, Contract): with team address ops@acme.com, refused are the team's own
// mailbox and the addresses built from it by sub-addressing: ops@acme.com, ops+alice@acme.com (case
// ignored; for Gmail also dots in the local part, which Gmail ignores). A colleague's address at the same
// domain (bob@acme.com) is a genuine address and is accepted, as is the team's name at another domain or
// subdomain (ops@eu.acme.com is another mailbox).

export const PUBLIC_MAIL_DOMAINS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'proton.me',
  'protonmail.com',
  'aol.com',
  'gmx.com',
  'gmx.de',
  'mail.com',
  'yandex.ru',
  'zoho.com',
];

/** Providers that ignore dots in the local part, so `t.e.a.m@` is the same mailbox as `team@`. */
const DOTS_IGNORED = ['gmail.com', 'googlemail.com'];

function split(email: string): { local: string; domain: string } | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return {
    local: email.slice(0, at).trim().toLowerCase(),
    domain: email
      .slice(at + 1)
      .trim()
      .toLowerCase(),
  };
}

/** The mailbox an address delivers to: the local part without its `+tag` (and without dots for Gmail). */
function mailbox(local: string, domain: string): string {
  const base = local.split('+')[0]!;
  return DOTS_IGNORED.includes(domain) ? base.replace(/\./g, '') : base;
}

/** True when `email` is one of the team's own addresses or built from one by sub-addressing. */
export function isTeamAliasEmail(email: string, teamEmails: readonly string[]): boolean {
  const candidate = split(email);
  if (!candidate) return false;
  return teamEmails.some((teamEmail) => {
    const team = split(teamEmail);
    if (!team || candidate.domain !== team.domain) return false;
    return mailbox(candidate.local, team.domain) === mailbox(team.local, team.domain);
  });
}
