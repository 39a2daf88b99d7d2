// The works the explainer rests on. Titles stay in their original language in every locale.
export const REFERENCES = [
  {
    id: 'vaswani2017',
    authors: 'Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., & Polosukhin, I.',
    year: 2017,
    title: 'Attention Is All You Need',
    venue: 'Advances in Neural Information Processing Systems 30 (NeurIPS 2017)',
    url: 'https://arxiv.org/abs/1706.03762',
  },
  {
    id: 'su2021',
    authors: 'Su, J., Lu, Y., Pan, S., Murtadha, A., Wen, B., & Liu, Y.',
    year: 2021,
    title: 'RoFormer: Enhanced Transformer with Rotary Position Embedding',
    venue: 'arXiv:2104.09864; Neurocomputing 568 (2024)',
    url: 'https://arxiv.org/abs/2104.09864',
  },
  {
    id: 'shaw2018',
    authors: 'Shaw, P., Uszkoreit, J., & Vaswani, A.',
    year: 2018,
    title: 'Self-Attention with Relative Position Representations',
    venue: 'Proceedings of NAACL-HLT 2018, pages 464–468',
    url: 'https://arxiv.org/abs/1803.02155',
  },
  {
    id: 'press2021',
    authors: 'Press, O., Smith, N. A., & Lewis, M.',
    year: 2021,
    title: 'Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation',
    venue: 'arXiv:2108.12409; International Conference on Learning Representations (ICLR 2022)',
    url: 'https://arxiv.org/abs/2108.12409',
  },
  {
    id: 'chen2023',
    authors: 'Chen, S., Wong, S., Chen, L., & Tian, Y.',
    year: 2023,
    title: 'Extending Context Window of Large Language Models via Positional Interpolation',
    venue: 'arXiv:2306.15595',
    url: 'https://arxiv.org/abs/2306.15595',
  },
];
