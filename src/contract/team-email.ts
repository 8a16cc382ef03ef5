// spec: Customer, email — "team-alias style addresses built from the team's own address are refused".
// Our decision (docs/spec-gaps.md, Contract): with team address ops@acme.com, refused are
//  - any address at the team's domain or a subdomain of it (ops+alice@acme.com, bob@acme.com, x@eu.acme.com);
//  - when the team's domain is a public mailbox provider (gmail.com, …) only the team's own mailbox and
//    its sub-addresses (ops@gmail.com, ops+alice@gmail.com; for Gmail dots in the local part are ignored).

export const PUBLIC_MAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'yahoo.com', 'icloud.com',
  'me.com', 'proton.me', 'protonmail.com', 'aol.com', 'gmx.com', 'gmx.de', 'mail.com', 'yandex.ru', 'zoho.com',
];

function split(email: string): { local: string; domain: string } | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return { local: email.slice(0, at).trim().toLowerCase(), domain: email.slice(at + 1).trim().toLowerCase() };
}

function mailbox(local: string, domain: string): string {
  const base = local.split('+')[0];
  return domain === 'gmail.com' || domain === 'googlemail.com' ? base.replace(/\./g, '') : base;
}

/** True when `email` is built from one of the team's own addresses. */
export function isTeamAliasEmail(email: string, teamEmails: readonly string[]): boolean {
  const candidate = split(email);
  if (!candidate) return false;
  return teamEmails.some((teamEmail) => {
    const team = split(teamEmail);
    if (!team) return false;
    const sameDomain = candidate.domain === team.domain || candidate.domain.endsWith(`.${team.domain}`);
    if (!sameDomain) return false;
    if (!PUBLIC_MAIL_DOMAINS.includes(team.domain)) return true;
    return candidate.domain === team.domain && mailbox(candidate.local, team.domain) === mailbox(team.local, team.domain);
  });
}
