import Link from 'next/link';
import { PageHeading } from '@/components/ui/PageHeading';
import { buttonClass } from '@/components/ui/button-class';

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <p className="font-mono text-6xl font-bold text-brand">404</p>
      <PageHeading>This line has already cleared</PageHeading>
      <p className="text-muted">The page you asked for does not exist.</p>
      <Link href="/" className={buttonClass({ variant: 'primary', size: 'md' })}>
        Back home
      </Link>
    </div>
  );
}
