import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { ContactPage } from './contact-page';

let success: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Subject'), 'Refund question');
  await user.selectOptions(screen.getByLabelText('Category'), 'billing');
  await user.type(screen.getByLabelText('Message'), 'Hello, I have a question about a refund.');
}

describe('/contact', () => {
  it('offers the seven categories and the support panel', () => {
    mockFetch();
    renderWithProviders(<ContactPage />, { path: '/contact' });
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual([
      'Choose a category',
      'General Inquiry',
      'Technical Support',
      'Billing & Payments',
      'Mentor Application',
      'Report an Issue',
      'Partnership Opportunity',
      'Feedback & Suggestions',
    ]);
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByText('Within 24 hours')).toBeInTheDocument();
    expect(screen.getByText('Monday through Sunday')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Help Center/ })).toHaveAttribute('href', '/help-center');
    expect(screen.getByText(/spiritual guidance, not medical or mental health treatment/)).toBeInTheDocument();
  });

  it('sends the message, says so and clears the form', async () => {
    const fetchMock = mockFetch({ 'POST /api/contact': () => jsonResponse(201, { message: 'Thanks' }) });
    renderWithProviders(<ContactPage />, { path: '/contact' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Message Sent!', {
        description: "Thank you for contacting us. We'll get back to you within 24 hours.",
      }),
    );
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/contact')!;
    expect(JSON.parse(String((post[1] as RequestInit).body))).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Refund question',
      category: 'billing',
      message: 'Hello, I have a question about a refund.',
    });
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Subject')).toHaveValue('');
    expect(screen.getByLabelText('Category')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it("says 'Missing Information' for blank required fields and sends nothing", async () => {
    const fetchMock = mockFetch();
    renderWithProviders(<ContactPage />, { path: '/contact' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Message'), 'Hi');
    fireEvent.submit(screen.getByRole('form', { name: 'Contact form' }));
    expect(error).toHaveBeenCalledWith('Missing Information', { description: 'Please fill in all required fields.' });
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/contact')).toEqual([]);
  });

  it('keeps the form and shows the error toast when sending fails', async () => {
    mockFetch({ 'POST /api/contact': () => jsonResponse(500, { message: 'boom' }) });
    renderWithProviders(<ContactPage />, { path: '/contact' });
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Error', {
        description: 'Failed to send message. Please try again or use our email address.',
      }),
    );
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(success).not.toHaveBeenCalled();
  });
});
