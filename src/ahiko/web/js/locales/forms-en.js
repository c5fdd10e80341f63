// English strings of the table's forms (buy-in, reload, fair re-entry), merged by i18n.js.

export const EN_FORMS = {
  "limits.range": "Allowed: from {min} to {max}.",
  "limits.exactly": "Allowed: exactly {amount}.",
  "limits.why_tier": "the {tier} table's buy-in is {min} to {max} coins",
  "limits.why_reentry": "fair re-entry: you left this tier with {left} chips less than 30 minutes ago, so the minimum is {min}",
  "limits.why_wallet": "your wallet holds {balance} coins",
  "limits.why_ceiling": "the table goes up to {max} chips and your stack has {stack}",
  "limits.reload_at_ceiling": "Your stack ({stack}) is already at the table maximum ({max}): there is nothing to reload.",
  "limits.reentry_until": "The fair re-entry rule (so nobody leaves a winner and comes back short) holds for {minutes} more min.",
  "limits.wallet_short": "Your wallet holds {balance} coins, less than the minimum of {min}: you cannot sit now.",
  "limits.not_whole": "Type a whole number of chips.",
  "limits.below": "The minimum is {min}.",
  "limits.above": "The maximum is {max}.",
  "limits.confirm_plain": "Confirm",
  "limits.reload_plain": "Reload",
};
