import { apiError } from '@/lib/server/http';

// Unknown API paths answer in the API's own error shape rather than with the HTML 404 page.
const notFound = async () => apiError(404, 'not_found', 'There is no such API endpoint.');
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
