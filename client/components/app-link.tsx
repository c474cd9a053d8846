import { Link, type LinkProps } from 'react-router';

/** Every in-site link goes through here, so navigation behaviour lives in one place. */
export function AppLink(props: LinkProps) {
  return <Link {...props} />;
}
