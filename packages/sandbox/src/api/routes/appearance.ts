/** Appearance: the site's theme, colours, font and logo. Public, as anyone visiting sees them. */
import { applyPatch } from '../lookup.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import type { Appearance } from '../store/index.js';

const FONTS = ['Inter', 'Merriweather', 'Lato', 'Playfair Display', 'Source Sans 3'] as const;
const color = (description: string, example: string) =>
  s.string(description, { pattern: '^#[0-9a-fA-F]{6}$', example });

const appearanceFields = {
  theme: s.enumOf(['light', 'dark'] as const, 'Colour scheme.'),
  primary_color: color('Main brand colour as #RRGGBB.', '#1F6FEB'),
  accent_color: color('Accent colour as #RRGGBB.', '#F78166'),
  font_family: s.enumOf(FONTS, 'Font of the site.'),
  logo_url: s.nullable(s.uri('Logo URL, e.g. one returned by upload_file.')),
  favicon_url: s.nullable(s.uri('Favicon URL.')),
};

const Appearance = s.object(
  { ...appearanceFields, updated_at: s.dateTime('When the appearance last changed.') },
  ['theme', 'primary_color', 'accent_color', 'font_family', 'logo_url', 'favicon_url', 'updated_at'],
  'The look of the school site.',
);

const AppearanceUpdate = partial(s.object(appearanceFields, []), 'Appearance settings to change.');

function updateAppearance({ store, body }: HandlerContext) {
  const appearance = store.state.appearance;
  if (applyPatch(appearance, body as Partial<Appearance>).length > 0) appearance.updated_at = store.timestamp();
  return appearance;
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/appearance',
    operationId: 'get_appearance',
    summary: 'Get the site appearance',
    description: 'Gets the theme, colours, font and logo of the school site.',
    group: 'appearance',
    scopes: ['appearance:read'],
    anonymous: 'public',
    response: { status: 200, schema: s.ref('Appearance'), description: 'The appearance settings.' },
    handler: ({ store }) => store.state.appearance,
  },
  {
    method: 'PATCH',
    path: '/api/v1/appearance',
    operationId: 'update_appearance',
    summary: 'Change the site appearance',
    description:
      'Changes only the given settings. Upload a new logo first with upload_file and pass its URL as `logo_url`.',
    group: 'appearance',
    scopes: ['appearance:write'],
    anonymous: 'private',
    body: { schema: s.ref('AppearanceUpdate') },
    response: { status: 200, schema: s.ref('Appearance'), description: 'The appearance as stored.' },
    handler: updateAppearance,
  },
];

export const appearanceFamily: RouteFamily = {
  group: 'appearance',
  description: 'Theme, colours, font and logo of the site. Public to read.',
  schemas: { Appearance, AppearanceUpdate },
  routes,
};
