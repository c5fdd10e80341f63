// Textos em português dos formulários da mesa (entrada, recarga, retorno justo): o intervalo
// permitido, por quê, e o que está errado no que foi digitado. i18n.js os junta aos demais.

export const PT_FORMS = {
  "limits.range": "Permitido: de {min} a {max}.",
  "limits.exactly": "Permitido: exatamente {amount}.",
  "limits.why_tier": "a entrada da mesa {tier} vai de {min} a {max} moedas",
  "limits.why_reentry": "retorno justo: você saiu deste nível com {left} fichas há menos de 30 minutos, então o mínimo é {min}",
  "limits.why_wallet": "sua carteira tem {balance} moedas",
  "limits.why_ceiling": "a mesa vai até {max} fichas e sua pilha tem {stack}",
  "limits.reload_at_ceiling": "Sua pilha ({stack}) já está no máximo da mesa ({max}): não há o que recarregar.",
  "limits.reentry_until": "Regra de retorno justo (contra sair ganhando e voltar com pouco): vale por mais {minutes} min.",
  "limits.wallet_short": "Sua carteira tem {balance} moedas, menos que o mínimo de {min}: não dá para entrar agora.",
  "limits.not_whole": "Digite um número inteiro de fichas.",
  "limits.below": "O mínimo é {min}.",
  "limits.above": "O máximo é {max}.",
  "limits.confirm_plain": "Confirmar",
  "limits.reload_plain": "Recarregar",
};
